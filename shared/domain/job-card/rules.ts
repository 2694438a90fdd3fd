/**
 * Job cards: JSON documents from external systems, stored verbatim. The recognised keys of the spec's
 * table are extracted for filtering and reporting; a value of the wrong type or size is not a reason to
 * refuse a card from a system we do not control, so it simply stays in the payload only.
 */
import { isPlainObject } from '../json.ts';
import { isCalendarDate } from '../time.ts';
import type { JobCardPayload } from './parse.ts';

/** The newest cards one answer, or one walk of pages, holds (the spec's cap on getJobCards). */
export const MAX_JOB_CARDS = 1000;

/** Extracted values by attribute name (company_id, site_address_line1, due_date, ...). */
export type ExtractedFields = Record<string, string | number>;

/** What a write stores: the payload and what was read out of it. */
export interface JobCardContent {
  payloadText: string;
  fields: ExtractedFields;
  externalReference: string | null;
}

export interface JobCard {
  jobCardUid: number;
  /** UTC ISO */
  createdAt: string;
  /** the address the card was created from; each edit's address is in its snapshot */
  sourceIp: string;
  externalReference: string | null;
  payloadText: string;
}

export const JOB_CARD_ACTIONS = ['create', 'edit'] as const;
export type JobCardAction = (typeof JOB_CARD_ACTIONS)[number];

export interface JobCardSnapshot {
  historyUid: number;
  /** UTC ISO */
  snapshotAt: string;
  action: JobCardAction;
  changedByUserUid: number;
  sourceIp: string;
  externalReference: string | null;
  payloadText: string;
}

type Extractor = (value: unknown, offsetMinutes: number) => string | number | undefined;

const characters =
  (max: number): Extractor =>
  (value) =>
    typeof value === 'string' && [...value].length <= max ? value : undefined;

/** MySQL TEXT: 65,535 bytes of UTF-8, which also keeps a card item well inside DynamoDB's 400 KB. */
const text: Extractor = (value) => (typeof value === 'string' && Buffer.byteLength(value, 'utf8') <= 65_535 ? value : undefined);

const integer: Extractor = (value) => (Number.isSafeInteger(value) ? (value as number) : undefined);

const flag: Extractor = (value) => {
  if (value === 0 || value === 1) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
};

/** A coordinate in range and storable as a DynamoDB number (which has no exponent below -130). */
const coordinate =
  (range: number): Extractor =>
  (value) =>
    typeof value === 'number' && Math.abs(value) <= range && (value === 0 || Math.abs(value) >= 1e-130) ? value : undefined;

const dueDate: Extractor = (value, offsetMinutes) => (typeof value === 'string' ? toUtc(value, offsetMinutes) : undefined);

/** The spec's table of recognised keys; nested keys are dotted paths. */
export const RECOGNISED: ReadonlyArray<readonly [string, Extractor]> = [
  ['CompanyId', characters(50)],
  ['Consignor', characters(200)],
  ['Consignee', characters(200)],
  ['SiteName', characters(200)],
  ['SiteLastname', characters(100)],
  ['SiteReferenceNumber', characters(100)],
  ['TripsheetReference', characters(100)],
  ['SiteContactNumber', characters(50)],
  ['SiteEmail', characters(200)],
  ['SiteAddress.Line1', characters(200)],
  ['SiteAddress.Line2', characters(200)],
  ['SiteAddress.Line3', characters(200)],
  ['SiteAddress.Suburb', characters(100)],
  ['SiteAddress.City', characters(100)],
  ['SiteAddress.PostalCode', characters(20)],
  ['DueDate', dueDate],
  ['ReferenceNumber', characters(100)],
  ['Instructions', text],
  ['Latitude', coordinate(90)],
  ['Longitude', coordinate(180)],
  ['DriverName', characters(200)],
  ['DriverUsername', characters(100)],
  ['DriverMobileNumber', characters(50)],
  ['DriverExternal', characters(50)],
  ['IsDelivery', flag],
  ['IsPriority', flag],
  ['PlannedSequence', integer],
  ['SyncState', integer],
  ['TripStopId', integer],
  ['LoadAssignmentId', integer],
  ['LoadAssignmentTransactionNo', characters(100)],
  ['TripTransactionNo', characters(100)],
];

/** `SiteAddress.PostalCode` → `site_address_postal_code` */
const attributeName = (path: string): string =>
  path
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/\./g, '_')
    .toLowerCase();

const valueAt = (document: Record<string, unknown>, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), document);

/** Reads the recognised keys; DueDate without an offset is taken in the user's offset. */
export function describePayload(payload: JobCardPayload, offsetMinutes: number): JobCardContent {
  const fields: ExtractedFields = {};
  for (const [path, extract] of RECOGNISED) {
    const extracted = extract(valueAt(payload.value, path), offsetMinutes);
    if (extracted !== undefined) fields[attributeName(path)] = extracted;
  }
  return { payloadText: payload.text, fields, externalReference: externalReference(fields) };
}

/** SiteReferenceNumber, else ReferenceNumber (as extracted, trimmed, blanks skipped), else null. */
function externalReference(fields: ExtractedFields): string | null {
  for (const attribute of ['site_reference_number', 'reference_number']) {
    const reference = String(fields[attribute] ?? '').trim();
    if (reference !== '') return reference;
  }
  return null;
}

const ISO_DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(Z|[+-](\d{2})(?::?(\d{2}))?)?$/i;
const MINUTE_MS = 60_000;

/** An ISO 8601 datetime with any offset (or none: the user's) as UTC `yyyy-mm-ddThh:mm:ssZ`; seconds fractions dropped. */
export function toUtc(value: string, offsetMinutes: number): string | undefined {
  const match = ISO_DATETIME.exec(value.trim());
  if (!match) return undefined;
  const [, date, hours, minutes, seconds = '00', zone, zoneHours = '00', zoneMinutes = '00'] = match as unknown as string[];
  if (!isCalendarDate(date as string) || Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) return undefined;
  if (Number(zoneHours) > 23 || Number(zoneMinutes) > 59) return undefined;
  const zoneOffset =
    zone === undefined
      ? offsetMinutes
      : zone.toUpperCase() === 'Z'
        ? 0
        : (zone.startsWith('-') ? -1 : 1) * (Number(zoneHours) * 60 + Number(zoneMinutes));
  const ms = Date.parse(`${date}T${hours}:${minutes}:${seconds}Z`) - zoneOffset * MINUTE_MS;
  const utc = new Date(ms).toISOString();
  return /^\d{4}-/.test(utc) ? `${utc.slice(0, 19)}Z` : undefined;
}
