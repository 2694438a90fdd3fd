import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  type ExtractedFields,
  type JobCard,
  type JobCardAction,
  type JobCardContent,
  type JobCardSnapshot,
  MAX_JOB_CARDS,
} from '../domain/job-card/rules.ts';
import { busyMessage, NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { defineEntity, nullableText, number, text } from './entity.ts';
import { keys } from './keys.ts';
import { batchGet, type Item, type PagedRead, readRange, readTaken, transactWrite, writeWithOptimisticRetry } from './requests.ts';

/** A card as stored, on the user's timeline; its item also carries the payload's extracted fields and its revision. */
const jobCardEntity = defineEntity<JobCard, number>({
  keys: (card, userUid) => ({
    ...keys.jobCard(userUid, card.jobCardUid),
    ...keys.jobCardTimeline(userUid, card.createdAt, card.jobCardUid),
  }),
  fields: {
    jobCardUid: number('job_card_uid'),
    createdAt: text('created_at'),
    sourceIp: text('source_ip'),
    externalReference: nullableText('external_reference'),
    payloadText: text('payload'),
  },
});

/** Where a snapshot is stored: the card's history, at the revision it records. */
interface SnapshotPlace {
  userUid: number;
  jobCardUid: number;
  revision: number;
}

const snapshotEntity = defineEntity<JobCardSnapshot, SnapshotPlace>({
  keys: (_snapshot, place) => keys.jobCardSnapshot(place.userUid, place.jobCardUid, place.revision),
  fields: {
    historyUid: number('history_uid'),
    snapshotAt: text('snapshot_at'),
    action: { name: 'action', read: (value) => (value === 'edit' ? 'edit' : 'create') },
    changedByUserUid: number('changed_by_user_uid'),
    sourceIp: text('source_ip'),
    externalReference: nullableText('external_reference'),
    payloadText: text('payload'),
  },
});

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
    { Put: putSnapshot({ userUid, jobCardUid, revision: 1 }, snapshot) },
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
    read: () => getCardItem(userUid, jobCardUid),
    write: async (current) => {
      const historyUid = await nextId('job-card-history');
      const previous = jobCardEntity.fromItem(current);
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
        { Put: putSnapshot({ userUid, jobCardUid, revision }, snapshot) },
        ...referenceChanges(userUid, card, previous.externalReference),
      ]);
      return card;
    },
    busyMessage: busyMessage('job card'),
  });
}

export async function getJobCard(userUid: number, jobCardUid: number): Promise<JobCard> {
  return jobCardEntity.fromItem(await getCardItem(userUid, jobCardUid));
}

/**
 * Cards fetched per wave of BatchGetItems when a reference is given: one wave (one round trip) for up to 100 cards, and
 * at 256 KB a card a wave holds no more than a gzip answer's budget.
 */
const CARDS_PER_WAVE = 100;

/**
 * Newest first, as far as the answer takes them (the handler caps the walk at the 1000 most recent cards). Without a
 * reference: a Query of gsi1. With one: a Query of the reference's items, then BatchGetItems of their cards, a wave at a
 * time so a full answer stops the reads.
 */
export async function readJobCards(userUid: number, filter: JobCardFilter, read: PagedRead<JobCard>): Promise<JobCard[]> {
  if (filter.externalReference === undefined) {
    return readTaken(keys.jobCardTimeRange(userUid, filter.from, filter.to), jobCardEntity.fromItem, read, { ScanIndexForward: false });
  }
  const reference = filter.externalReference;
  const pointers: Array<{ jobCardUid: number; position: Record<string, string> }> = [];
  await readRange(
    keys.jobCardReferenceRange(userUid, reference, filter.from, filter.to),
    (item, position) => pointers.push({ jobCardUid: Number(item.job_card_uid), position }) < MAX_JOB_CARDS,
    { ScanIndexForward: false, after: read.after },
  );
  const taken: JobCard[] = [];
  for (let start = 0; start < pointers.length; start += CARDS_PER_WAVE) {
    const wave = pointers.slice(start, start + CARDS_PER_WAVE);
    const items = await batchGet(wave.map((pointer) => keys.jobCard(userUid, pointer.jobCardUid)));
    const cards = new Map(items.map((item) => [Number(item.job_card_uid), jobCardEntity.fromItem(item)]));
    for (const pointer of wave) {
      const card = cards.get(pointer.jobCardUid);
      // An edit between the two reads may have moved the card to another reference.
      if (!card || card.externalReference !== reference) continue;
      if (!read.take(card, pointer.position)) return taken;
      taken.push(card);
    }
  }
  return taken;
}

/** Oldest first, as far as the answer takes them; one Query, since the history lives under the owner and is never empty for a real card. */
export async function readJobCardHistory(
  userUid: number,
  jobCardUid: number,
  read: PagedRead<JobCardSnapshot>,
): Promise<JobCardSnapshot[]> {
  let found = false;
  const snapshots = await readTaken(keys.jobCardHistoryRange(userUid, jobCardUid), snapshotEntity.fromItem, {
    after: read.after,
    most: read.most,
    take: (snapshot, position) => {
      found = true;
      return read.take(snapshot, position);
    },
  });
  if (!found && !read.after) throw NotFound.notLinked('job card');
  return snapshots;
}

/** Strongly consistent, as an edit's retry must see the change that made its condition fail. */
async function getCardItem(userUid: number, jobCardUid: number): Promise<Item> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: keys.jobCard(userUid, jobCardUid), ConsistentRead: true }),
  );
  if (!Item) throw NotFound.notLinked('job card');
  return Item;
}

/** The extracted fields first: a payload key can never overwrite the card's own attributes. */
function putCard(userUid: number, card: JobCard, fields: ExtractedFields, revision: number) {
  return { TableName: tableName(), Item: { ...fields, ...jobCardEntity.toItem(card, userUid), revision } };
}

/** Snapshots are only ever put, never over an existing one: the history is append-only. */
function putSnapshot(place: SnapshotPlace, snapshot: JobCardSnapshot) {
  return { TableName: tableName(), Item: snapshotEntity.toItem(snapshot, place), ConditionExpression: 'attribute_not_exists(pk)' };
}

function snapshotOf(
  card: JobCard,
  historyUid: number,
  action: JobCardAction,
  userUid: number,
  sourceIp: string,
  at: string,
): JobCardSnapshot {
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
  const referenceKey = (text: string) => keys.jobCardReference(userUid, text, card.createdAt, card.jobCardUid);
  return [
    ...(previous === null ? [] : [{ Delete: { TableName: tableName(), Key: referenceKey(previous) } }]),
    ...(reference === null
      ? []
      : [{ Put: { TableName: tableName(), Item: { ...referenceKey(reference), job_card_uid: card.jobCardUid } } }]),
  ];
}
