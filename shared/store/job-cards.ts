import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type {
  ExtractedFields,
  JobCard,
  JobCardAction,
  JobCardContent,
  JobCardSnapshot,
} from '../domain/job-card.ts';
import { NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { keys } from './keys.ts';
import { batchGet, type Item, queryAll, queryPrefix, transactWrite, writeWithOptimisticRetry } from './requests.ts';

const NOT_FOUND = 'job card not found or not linked to this api key';
const MAX_JOB_CARDS = 1000;

export interface JobCardFilter {
  /** UTC instants bounding created time, inclusive */
  from?: string;
  to?: string;
  externalReference?: string;
}

/** The card, its reference item and its 'create' snapshot in one transaction. */
export async function addJobCard(
  userUid: number,
  content: JobCardContent,
  sourceIp: string,
  createdAt = new Date().toISOString(),
): Promise<JobCard> {
  const [jobCardUid, historyUid] = await Promise.all([nextId('job-card'), nextId('job-card-history')]);
  const card: JobCard = {
    jobCardUid,
    createdAt,
    sourceIp,
    externalReference: content.externalReference,
    payloadText: content.payloadText,
  };
  const snapshot = snapshotOf(card, historyUid, 'create', userUid, sourceIp, createdAt);
  await transactWrite([
    { Put: { ...putCard(userUid, card, content.fields, 1), ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: putSnapshot(userUid, jobCardUid, 1, snapshot) },
    ...referenceChanges(userUid, card, null),
  ]);
  return card;
}

/**
 * Replaces the payload and what was extracted from it (a Put, so keys the new payload lacks are gone),
 * moves the reference item, and appends an 'edit' snapshot, all conditional on the revision read. The
 * snapshot's history_uid is drawn after that read, on every attempt: an edit that commits revision n+1 read
 * revision n after it committed, so its id is drawn after that edit's and history_uid follows the revisions.
 */
export async function editJobCard(userUid: number, jobCardUid: number, content: JobCardContent, sourceIp: string): Promise<JobCard> {
  return writeWithOptimisticRetry({
    read: () => readCardItem(userUid, jobCardUid),
    write: async (current) => {
      const historyUid = await nextId('job-card-history');
      const previous = cardFromItem(current);
      const revision = Number(current.revision) + 1;
      const card: JobCard = { ...previous, externalReference: content.externalReference, payloadText: content.payloadText };
      const snapshot = snapshotOf(card, historyUid, 'edit', userUid, sourceIp, new Date().toISOString());
      await transactWrite([
        {
          Put: {
            ...putCard(userUid, card, content.fields, revision),
            ConditionExpression: 'revision = :seen',
            ExpressionAttributeValues: { ':seen': revision - 1 },
          },
        },
        { Put: putSnapshot(userUid, jobCardUid, revision, snapshot) },
        ...referenceChanges(userUid, card, previous.externalReference),
      ]);
      return card;
    },
    busyMessage: 'job card is being changed by another request, try again',
  });
}

export async function findJobCard(userUid: number, jobCardUid: number): Promise<JobCard> {
  return cardFromItem(await readCardItem(userUid, jobCardUid));
}

/**
 * At most the 1000 most recent cards, newest first. Without a reference: one Query of gsi1.
 * With one: a Query of the reference's items, then one BatchGetItem of their cards.
 */
export async function listJobCards(userUid: number, filter: JobCardFilter): Promise<JobCard[]> {
  const range = keys.jobCardPositionRange(filter.from, filter.to);
  if (filter.externalReference === undefined) {
    const items = await queryNewest({ IndexName: 'gsi1', pkName: 'gsi1pk', pk: keys.jobCardsByTime(userUid), skName: 'gsi1sk', ...range });
    return items.map(cardFromItem);
  }
  const reference = filter.externalReference;
  const pointers = await queryNewest({ pkName: 'pk', pk: keys.jobCardsByReference(userUid, reference), skName: 'sk', ...range });
  const items = await batchGet(pointers.map((pointer) => keys.jobCard(userUid, Number(pointer.job_card_uid))));
  const cards = new Map(items.map((item) => [Number(item.job_card_uid), cardFromItem(item)]));
  // An edit between the two reads may have moved the card to another reference.
  return pointers.flatMap((pointer) => cards.get(Number(pointer.job_card_uid)) ?? []).filter((card) => card.externalReference === reference);
}

/** Oldest first; one Query, since the history lives under the owner and is never empty for a real card. */
export async function listJobCardHistory(userUid: number, jobCardUid: number): Promise<JobCardSnapshot[]> {
  const items = await queryPrefix(keys.jobCardHistory(userUid, jobCardUid), keys.jobCardHistoryPrefix);
  if (items.length === 0) throw new NotFound(NOT_FOUND);
  return items.map(snapshotFromItem);
}

async function readCardItem(userUid: number, jobCardUid: number): Promise<Item> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: keys.jobCard(userUid, jobCardUid), ConsistentRead: true }),
  );
  if (!Item) throw new NotFound(NOT_FOUND);
  return Item;
}

interface NewestQuery {
  IndexName?: string;
  pkName: string;
  pk: string;
  skName: string;
  from?: string | undefined;
  to?: string | undefined;
}

async function queryNewest({ IndexName, pkName, pk, skName, from, to }: NewestQuery): Promise<Item[]> {
  const bound =
    from !== undefined && to !== undefined ? '#sk BETWEEN :from AND :to' : from !== undefined ? '#sk >= :from' : to !== undefined ? '#sk <= :to' : undefined;
  const items = await queryAll({
    IndexName,
    KeyConditionExpression: bound ? `#pk = :pk AND ${bound}` : '#pk = :pk',
    ExpressionAttributeNames: { '#pk': pkName, ...(bound ? { '#sk': skName } : {}) },
    ExpressionAttributeValues: { ':pk': pk, ...(from !== undefined ? { ':from': from } : {}), ...(to !== undefined ? { ':to': to } : {}) },
    ScanIndexForward: false,
    Limit: MAX_JOB_CARDS,
  });
  return items.slice(0, MAX_JOB_CARDS);
}

function putCard(userUid: number, card: JobCard, fields: ExtractedFields, revision: number) {
  return {
    TableName: tableName(),
    Item: {
      ...fields,
      ...keys.jobCard(userUid, card.jobCardUid),
      gsi1pk: keys.jobCardsByTime(userUid),
      gsi1sk: keys.jobCardPosition(card.createdAt, card.jobCardUid),
      job_card_uid: card.jobCardUid,
      created_at: card.createdAt,
      source_ip: card.sourceIp,
      external_reference: card.externalReference,
      payload: card.payloadText,
      revision,
    },
  };
}

/** Snapshots are only ever put, never over an existing one: the history is append-only. */
function putSnapshot(userUid: number, jobCardUid: number, revision: number, snapshot: JobCardSnapshot) {
  return {
    TableName: tableName(),
    Item: {
      pk: keys.jobCardHistory(userUid, jobCardUid),
      sk: keys.jobCardSnapshot(revision),
      history_uid: snapshot.historyUid,
      snapshot_at: snapshot.snapshotAt,
      action: snapshot.action,
      changed_by_user_uid: snapshot.changedByUserUid,
      source_ip: snapshot.sourceIp,
      external_reference: snapshot.externalReference,
      payload: snapshot.payloadText,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

function snapshotOf(card: JobCard, historyUid: number, action: JobCardAction, userUid: number, sourceIp: string, at: string): JobCardSnapshot {
  return {
    historyUid,
    snapshotAt: at,
    action,
    changedByUserUid: userUid,
    sourceIp,
    externalReference: card.externalReference,
    payloadText: card.payloadText,
  };
}

/** The reference item follows the card's reference; an unchanged reference keeps its item. */
function referenceChanges(userUid: number, card: JobCard, previous: string | null) {
  const reference = card.externalReference;
  if (reference === previous) return [];
  const position = keys.jobCardPosition(card.createdAt, card.jobCardUid);
  return [
    ...(previous === null ? [] : [{ Delete: { TableName: tableName(), Key: { pk: keys.jobCardsByReference(userUid, previous), sk: position } } }]),
    ...(reference === null
      ? []
      : [{ Put: { TableName: tableName(), Item: { pk: keys.jobCardsByReference(userUid, reference), sk: position, job_card_uid: card.jobCardUid } } }]),
  ];
}

const nullableText = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function cardFromItem(item: Item): JobCard {
  return {
    jobCardUid: Number(item.job_card_uid),
    createdAt: String(item.created_at),
    sourceIp: String(item.source_ip ?? ''),
    externalReference: nullableText(item.external_reference),
    payloadText: String(item.payload),
  };
}

function snapshotFromItem(item: Item): JobCardSnapshot {
  return {
    historyUid: Number(item.history_uid),
    snapshotAt: String(item.snapshot_at),
    action: item.action === 'edit' ? 'edit' : 'create',
    changedByUserUid: Number(item.changed_by_user_uid),
    sourceIp: String(item.source_ip ?? ''),
    externalReference: nullableText(item.external_reference),
    payloadText: String(item.payload),
  };
}
