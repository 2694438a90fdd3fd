/**
 * Job cards: JSON documents from external systems, stored verbatim. The recognised keys of the spec's
 * table are extracted for filtering and reporting; a value of the wrong type or size is not a reason to
 * refuse a card from a system we do not control, so it simply stays in the payload only.
 */
import * as v from 'valibot';
import { BadRequest } from '../errors.ts';
import { dateTimeText, integer as id, nullableText } from '../responses.ts';
import { isPlainObject } from '../validation.ts';
import { verbatimJsonObject } from '../middleware/envelope.ts';
import type { ParsedBody } from '../middleware/types.ts';
import { isCalendarDate } from '../validation.ts';
import { formatDateTime } from './time.ts';

export const PAYLOAD_REQUIRED = 'payload is required (raw JSON body or a payload form field)';
export const PAYLOAD_NOT_JSON = 'payload is not valid JSON';
/** Deeper documents come only from abuse, and many clients' recursive JSON readers overflow their stack on them when reading a card back. */
export const MAX_PAYLOAD_DEPTH = 64;
export const PAYLOAD_TOO_DEEP = `payload is nested too deeply (max ${MAX_PAYLOAD_DEPTH} levels)`;

/** The `payload` form field of addJobCard and editJobCard; a raw JSON body is the document itself. */
export const payloadField = v.optional(v.pipe(v.string(PAYLOAD_NOT_JSON), v.description('the job card document as JSON text, when the body is a form')));

/** The document as received (`text`, kept byte for byte) and as parsed. */
export interface JobCardPayload {
  text: string;
  value: Record<string, unknown>;
}

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

/**
 * The payload of addJobCard / editJobCard: a raw JSON body wins; otherwise the `payload` parameter.
 * A form-read body that is no name=value list was meant as the document itself: a JSON object sent
 * with curl -d's default form label is taken, and `null`, `42` or `hello` answer as invalid JSON
 * rather than as a missing payload.
 */
export function readPayload(body: ParsedBody, field: string | undefined): JobCardPayload {
  if (body.kind === 'json') return asPayload(body.text, body.value);
  if (body.kind === 'invalid-json') throw new BadRequest(PAYLOAD_NOT_JSON);
  if (field !== undefined && field.trim() !== '') return parsePayload(field);
  if (body.kind === 'form' && (/^\s*\{/.test(body.text) || !body.text.includes('='))) return parsePayload(body.text);
  throw new BadRequest(PAYLOAD_REQUIRED);
}

export function parsePayload(text: string): JobCardPayload {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequest(PAYLOAD_NOT_JSON);
  }
  return asPayload(text, value);
}

function asPayload(text: string, value: unknown): JobCardPayload {
  if (!isPlainObject(value)) throw new BadRequest(PAYLOAD_NOT_JSON);
  if (deeperThan(value, MAX_PAYLOAD_DEPTH)) throw new BadRequest(PAYLOAD_TOO_DEEP);
  return { text, value };
}

/** Whether objects and arrays nest more than `levels` deep; without recursion, as the value may be too deep for it. */
function deeperThan(value: object, levels: number): boolean {
  const pending: Array<readonly [unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > levels) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

type Extractor = (value: unknown, offsetMinutes: number) => string | number | undefined;

const characters = (max: number): Extractor => (value) =>
  typeof value === 'string' && [...value].length <= max ? value : undefined;

/** MySQL TEXT: 65,535 bytes of UTF-8, which also keeps a card item well inside DynamoDB's 400 KB. */
const text: Extractor = (value) =>
  typeof value === 'string' && Buffer.byteLength(value, 'utf8') <= 65_535 ? value : undefined;

const integer: Extractor = (value) => (Number.isSafeInteger(value) ? (value as number) : undefined);

const flag: Extractor = (value) => {
  if (value === 0 || value === 1) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
};

/** A coordinate in range and storable as a DynamoDB number (which has no exponent below -130). */
const coordinate = (range: number): Extractor => (value) =>
  typeof value === 'number' && Math.abs(value) <= range && (value === 0 || Math.abs(value) >= 1e-130) ? value : undefined;

const dueDate: Extractor = (value, offsetMinutes) => (typeof value === 'string' ? toUtc(value, offsetMinutes) : undefined);

/** The spec's table of recognised keys; nested keys are dotted paths. */
const RECOGNISED: ReadonlyArray<readonly [string, Extractor]> = [
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

/** The payload as documented: any JSON object; what it holds beyond the recognised keys is the sender's business. */
export const JobCardDocument = v.pipe(
  v.record(v.string(), v.unknown()),
  v.description(`A JSON object, stored and returned verbatim: number spelling (12345678901234567890, 1.50), key order and escapes come back exactly as sent. Recognised keys: ${RECOGNISED.map(([path]) => path).join(', ')}.`),
);

/** `SiteAddress.PostalCode` → `site_address_postal_code` */
const attributeName = (path: string): string =>
  path.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/\./g, '_').toLowerCase();

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
    zone === undefined ? offsetMinutes : zone.toUpperCase() === 'Z' ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zoneHours) * 60 + Number(zoneMinutes));
  const ms = Date.parse(`${date}T${hours}:${minutes}:${seconds}Z`) - zoneOffset * MINUTE_MS;
  const utc = new Date(ms).toISOString();
  return /^\d{4}-/.test(utc) ? `${utc.slice(0, 19)}Z` : undefined;
}

export const JobCardRecord = v.object({
  job_card_uid: id,
  created_datetime: dateTimeText,
  source_ip: v.string(),
  external_reference: nullableText,
  payload: JobCardDocument,
});

/** What addJobCard and editJobCard answer. */
export const JobCardReceipt = v.object({ job_card_uid: id, external_reference: nullableText });

export const JobCardSnapshotRecord = v.object({
  history_uid: id,
  snapshot_datetime: dateTimeText,
  action: v.picklist(JOB_CARD_ACTIONS),
  changed_by_user_uid: id,
  source_ip: v.string(),
  external_reference: nullableText,
  payload: JobCardDocument,
});

/** The spec's job card record, created_datetime in the user's offset. */
export function toJobCardRecord(card: JobCard, offsetMinutes: number): v.InferOutput<typeof JobCardRecord> {
  return {
    job_card_uid: card.jobCardUid,
    created_datetime: formatDateTime(card.createdAt, offsetMinutes),
    source_ip: card.sourceIp,
    external_reference: card.externalReference,
    payload: verbatimJsonObject(card.payloadText),
  };
}

/** The spec's history snapshot, snapshot_datetime in the user's offset. */
export function toSnapshotRecord(snapshot: JobCardSnapshot, offsetMinutes: number): v.InferOutput<typeof JobCardSnapshotRecord> {
  return {
    history_uid: snapshot.historyUid,
    snapshot_datetime: formatDateTime(snapshot.snapshotAt, offsetMinutes),
    action: snapshot.action,
    changed_by_user_uid: snapshot.changedByUserUid,
    source_ip: snapshot.sourceIp,
    external_reference: snapshot.externalReference,
    payload: verbatimJsonObject(snapshot.payloadText),
  };
}
