/**
 * Every key of the single table, one small function each. This is the only module that knows
 * how items are keyed; docs/access-patterns.md lists the access pattern each key serves.
 */
import { createHash } from 'node:crypto';

export interface Key {
  pk: string;
  sk: string;
}

/** Zero-padded ids sort numerically inside a partition. */
const pad = (id: number): string => String(id).padStart(12, '0');

/** Long user-supplied names are hashed so a claim's key stays far below DynamoDB's key size limit. */
const digest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export const keys = {
  counter: (entity: string): Key => ({ pk: `COUNTER#${entity}`, sk: 'COUNTER' }),

  apiKey: (keyHash: string): Key => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  user: (userUid: number): Key => ({ pk: `USER#${userUid}`, sk: 'PROFILE' }),

  vehicle: (vehicleUid: number): Key => ({ pk: `VEHICLE#${vehicleUid}`, sk: 'VEHICLE' }),
  vehicleLive: (vehicleUid: number): Key => ({ pk: `VEHICLE#${vehicleUid}`, sk: 'LIVE' }),
  imeiClaim: (imei: string): Key => ({ pk: `IMEI#${imei}`, sk: 'IMEI' }),
  vehicleLink: (userUid: number, vehicleUid: number): Key => ({ pk: `USER#${userUid}`, sk: `VEHICLE#${pad(vehicleUid)}` }),
  vehicleLinksPrefix: 'VEHICLE#',

  /** trips sort by their UTC start so a date range is one Query; one trip per vehicle and start keeps reprocessing idempotent */
  trip: (vehicleUid: number, startTime: string): Key => ({ pk: `VEHICLE#${vehicleUid}`, sk: `TRIP#${startTime}` }),
  tripRange: (vehicleUid: number, from: string, to: string) => ({
    pk: `VEHICLE#${vehicleUid}`,
    skFrom: `TRIP#${from}`,
    skTo: `TRIP#${to}~`,
  }),

  expenseType: (userUid: number, type: number): Key => ({ pk: `USER#${userUid}`, sk: `EXPTYPE#${pad(type)}` }),
  expenseTypesPrefix: 'EXPTYPE#',
  /** one claim per live name, compared trimmed and case-insensitively */
  expenseTypeName: (userUid: number, name: string): Key => ({
    pk: `USER#${userUid}`,
    sk: `EXPTYPENAME#${digest(name.trim().toLowerCase())}`,
  }),
} as const;
