/** The envelope every answer is wrapped in: its version, and the fields a success and an error carry. */
import * as v from 'valibot';

export const API_VERSION = '1';

/** The fields every success starts with. */
export const SuccessEnvelope = v.object({
  version: v.literal(API_VERSION),
  result: v.literal('success'),
  error_msg: v.literal(''),
});

/** Every error: these three fields and nothing else. */
export const ErrorEnvelope = v.strictObject({
  version: v.literal(API_VERSION),
  result: v.literal('error'),
  error_msg: v.string(),
});
