/**
 * valibot building blocks for what operations answer: the envelope and the field types of the spec's
 * records. They type the handlers (`output` of operation(...)) and make the OpenAPI document;
 * responses are not validated at run time.
 */
import * as v from 'valibot';
import { API_VERSION } from './middleware/envelope.ts';

/** Ids, counts and whole seconds. */
export const integer = v.pipe(v.number(), v.integer());

export const nullableText = v.nullable(v.string());

/** 1 or 0 (active_flag, no_go, only_push). */
export const flag = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1));

/** 'yyyy-mm-dd hh:mm:ss' */
export const dateTimeText = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/));

/** 'yyyy-mm-dd' */
export const dateText = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/));

/** Money and quantities as decimal text, never floats ('850.40'). */
export const decimalText = v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/));

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
