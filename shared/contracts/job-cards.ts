/** Job cards on the wire: where the payload comes from in a request, the document, the records and the receipt. */
import * as v from 'valibot';
import { asPayload, type JobCardPayload, PAYLOAD_NOT_JSON, parsePayload } from '../domain/job-card/parse.ts';
import { JOB_CARD_ACTIONS, type JobCard, type JobCardSnapshot, RECOGNISED } from '../domain/job-card/rules.ts';
import { formatDateTime } from '../domain/time.ts';
import { BadRequest } from '../errors.ts';
import { dateTimeField, described, integerField, nullableTextField, requiredInteger } from './primitives.ts';
import type { ParsedBody } from './request-body.ts';
import { verbatimJsonObject } from './verbatim-json.ts';

/** One of the user's job cards, by its id. */
export const jobCardUid = described(requiredInteger('job_card_uid'), "One of the user's job cards.");

export const PAYLOAD_REQUIRED = 'payload is required (raw JSON body or a payload form field)';

/** The `payload` form field of addJobCard and editJobCard; a raw JSON body is the document itself. */
export const payloadField = v.optional(
  v.pipe(
    v.string(PAYLOAD_NOT_JSON),
    v.description('The job card document as JSON text (a form field); a raw JSON object body is the document itself.'),
  ),
);

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

/** The payload as documented: any JSON object; what it holds beyond the recognised keys is the sender's business. */
export const JobCardDocument = v.pipe(
  v.record(v.string(), v.unknown()),
  v.description(
    `A JSON object, stored and returned verbatim: number spelling (12345678901234567890, 1.50), key order and escapes come back ` +
      `exactly as sent. Recognised keys: ${RECOGNISED.map(([path]) => path).join(', ')}.`,
  ),
);

export const JobCardRecord = v.object({
  job_card_uid: integerField,
  created_datetime: dateTimeField,
  source_ip: v.string(),
  external_reference: nullableTextField,
  payload: JobCardDocument,
});

/** What addJobCard and editJobCard answer. */
export const JobCardReceipt = v.object({ job_card_uid: integerField, external_reference: nullableTextField });

export const JobCardSnapshotRecord = v.object({
  history_uid: integerField,
  snapshot_datetime: dateTimeField,
  action: v.picklist(JOB_CARD_ACTIONS),
  changed_by_user_uid: integerField,
  source_ip: v.string(),
  external_reference: nullableTextField,
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
