/** The device token operations' parameters and record (docs/console.md, "Devices"): a signed-in person's only. */
import * as v from 'valibot';
import { formatDateTime } from '../domain/time.ts';
import type { DeviceToken } from '../store/device-tokens.ts';
import { dateTimeField, described, integerField, nullableTextField, scalar } from './primitives.ts';

export const deviceTokenUid = described(
  v.pipe(scalar('device_token_uid is required'), v.regex(/^[0-9a-f]{12}$/, 'device_token_uid must be 12 hexadecimal digits')),
  "One of the user's device tokens (device_token_uid of addDeviceToken or getDeviceTokens).",
);

export const DeviceTokenRecord = v.object({
  device_token_uid: described(v.string(), "The token's name: its hash's first 12 hex digits, never the token."),
  vehicle_uid: v.nullable(integerField),
  prefix: described(nullableTextField, "The token's first 8 characters (null for tokens made by the CLI before they were kept)."),
  created_datetime: dateTimeField,
});

export const deviceTokenRecord = (token: DeviceToken, gmtOffsetMinutes: number): v.InferOutput<typeof DeviceTokenRecord> => ({
  device_token_uid: token.tokenId,
  vehicle_uid: token.vehicleUid,
  prefix: token.prefix,
  created_datetime: formatDateTime(token.createdAt, gmtOffsetMinutes),
});

export const DEMO_DEVICE_TOKEN = {
  device_token_uid: '3f9a0c1b7d2e',
  vehicle_uid: 1,
  prefix: 'Kp4mW2xR',
  created_datetime: '2026-03-14 09:20:41',
};
