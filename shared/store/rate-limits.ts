/**
 * Per-api-key token buckets (GCRA, shared/domain/token-bucket.ts): one item per key holding its theoretical arrival
 * time, taken with one conditional UpdateItem and no read. DynamoDB cannot compute max(tat, now), so there are two
 * writes, one per side of now: `drain` for a bucket in use (or never used), `refill` for one idle since its TAT. The
 * container's last sight of the key's TAT picks the side (a key it has not seen is most likely busy: new containers
 * start when requests come together); a wrong guess fails its condition, which answers the stored TAT
 * (ReturnValuesOnConditionCheckFailure), so the one retry is the right side, and a refusal needs no second write.
 * The device buckets, which a well-behaved device never comes near, skip the write while they are quiet
 * (takeFromQuietBucket).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type Allowance,
  type BucketPolicy,
  deferrableRequests,
  intervalMs,
  latestPassingTat,
  owedForMs,
  passed,
  refused,
  tatAfter,
} from '../domain/token-bucket.ts';
import { dynamo, tableName } from './client.ts';
import { type Key, keys } from './keys.ts';
import { isConditionFailed } from './requests.ts';
import { tableDefinition } from './table-definition.ts';

/** How long after a bucket is full again DynamoDB's TTL may remove its item (a full bucket and no item are the same). */
const TTL_GRACE_S = 60;

/**
 * The TAT this container last saw per bucket: for takeFromBucket a hint for the side to try first, never a decision;
 * for takeFromQuietBucket also whether a request may pass without a write.
 */
const seenTats = new Map<string, number>();
/** both buckets of 10,000 phones, with room: a few MB at most */
const MAX_SEEN_KEYS = 50_000;

type Side = 'refill' | 'drain';
type Attempt = { tat: number } | { storedTat: number | undefined };

/**
 * Takes one request from the key's bucket and answers what the client has left. A refusal is judged again at the
 * time the refusing write answered: a write that waited behind others (many requests of one process, locally) must
 * not be judged at the time it was sent, after later requests have already moved the bucket on.
 */
export const takeToken = (keyHash: string, policy: BucketPolicy, clock: () => number = Date.now): Promise<Allowance> =>
  takeFromBucket(keys.rateBucket(keyHash), policy, clock);

/** takeToken for any bucket item (a device token's, an IMEI's: keys.ts). */
export async function takeFromBucket(bucket: Key, policy: BucketPolicy, clock: () => number = Date.now): Promise<Allowance> {
  return (await takeCounting(bucket, policy, clock, 0)).allowance;
}

/** Requests this function instance let pass without a write, per bucket: counted by its next write of the bucket. */
const owed = new Map<string, { requests: number; since: number }>();

/**
 * takeFromBucket for buckets a well-behaved client stays far below: the device buckets, where a phone reporting every
 * 30 s meets limits of 10 a second, and two writes a report would cost more than the report's own request
 * (docs/cost.md). While this instance last saw the bucket within `deferrableRequests` of full, a request passes
 * without a write and is owed; the instance's next write of the bucket counts it too. So a client reporting slower
 * than the bucket refills costs no write once an instance has seen it, and a flood is counted whole. What the limit
 * can miss is bounded: owed requests older than the bucket's refill time are dropped, and an instance can let pass
 * `deferrableRequests` that others already emptied the bucket for, before its next write tells it so.
 */
export async function takeFromQuietBucket(bucket: Key, policy: BucketPolicy, clock: () => number = Date.now): Promise<Allowance> {
  const name = bucket.pk;
  const nowMs = clock();
  const debt = owedAt(name, policy, nowMs);
  const seen = seenTats.get(name);
  const tatIfPassed = tatAfter(policy, nowMs, seen);
  const deferrable = deferrableRequests(policy);
  if (seen !== undefined && debt.requests < deferrable && tatIfPassed <= nowMs + deferrable * intervalMs(policy)) {
    owed.set(name, { requests: debt.requests + 1, since: debt.requests === 0 ? nowMs : debt.since });
    return remember(name, tatIfPassed, passed(policy, nowMs, tatIfPassed));
  }
  // this write takes what is owed: requests arriving while it is on its way owe afresh
  owed.delete(name);
  const { allowance, counted } = await takeCounting(bucket, policy, clock, debt.requests);
  if (!counted && debt.requests > 0) owed.set(name, debt);
  return allowance;
}

function owedAt(name: string, policy: BucketPolicy, nowMs: number): { requests: number; since: number } {
  const debt = owed.get(name);
  if (debt === undefined || nowMs - debt.since > owedForMs(policy)) return { requests: 0, since: nowMs };
  return debt;
}

/** One request, and `owedRequests` that already passed, from the bucket: they are counted whenever this one is. */
async function takeCounting(
  bucket: Key,
  policy: BucketPolicy,
  clock: () => number,
  owedRequests: number,
): Promise<{ allowance: Allowance; counted: boolean }> {
  const name = bucket.pk;
  let judgedAt = clock();
  const seen = seenTats.get(name);
  let attempt = await attemptSide(seen === undefined || seen >= judgedAt ? 'drain' : 'refill', bucket, policy, judgedAt, owedRequests);
  if ('storedTat' in attempt) {
    judgedAt = clock();
    if (!isPastBurst(policy, judgedAt, attempt.storedTat)) {
      attempt = await attemptSide(sideOf(attempt.storedTat, judgedAt), bucket, policy, judgedAt, owedRequests);
    }
  }
  if ('tat' in attempt) return { allowance: remember(name, attempt.tat, passed(policy, judgedAt, attempt.tat)), counted: true };
  const { storedTat } = attempt;
  if (isPastBurst(policy, judgedAt, storedTat)) {
    return { allowance: remember(name, storedTat, refused(policy, judgedAt, storedTat)), counted: false };
  }
  // A TAT only grows, so a retry that fails without refusing is a drain that found the bucket idle and a refill that
  // found another request had refilled it meanwhile: the bucket was full a moment ago, so letting this one request
  // pass uncounted cannot take a client past its limit, where refusing it would punish the store's bookkeeping.
  return { allowance: passed(policy, judgedAt, tatAfter(policy, judgedAt, storedTat)), counted: false };
}

const sideOf = (storedTat: number | undefined, nowMs: number): Side => (storedTat !== undefined && storedTat < nowMs ? 'refill' : 'drain');

const isPastBurst = (policy: BucketPolicy, nowMs: number, storedTat: number | undefined): storedTat is number =>
  storedTat !== undefined && storedTat > latestPassingTat(policy, nowMs);

function remember(keyHash: string, tat: number, allowance: Allowance): Allowance {
  if (seenTats.size >= MAX_SEEN_KEYS) {
    seenTats.clear();
    owed.clear();
  }
  seenTats.set(keyHash, tat);
  return allowance;
}

const SIDES = {
  refill: { update: 'SET #tat = :refilled, #ttl = :expires', condition: 'attribute_not_exists(#tat) OR #tat < :now' },
  drain: {
    update: 'SET #tat = if_not_exists(#tat, :now) + :taken, #ttl = :expires',
    condition: 'attribute_not_exists(#tat) OR #tat BETWEEN :now AND :latest',
  },
} as const;

/** The write of one side; owed requests move the TAT on with this one but never decide whether it passes. */
async function attemptSide(side: Side, bucket: Key, policy: BucketPolicy, nowMs: number, owedRequests: number): Promise<Attempt> {
  const interval = intervalMs(policy);
  const taken = (1 + owedRequests) * interval;
  const values =
    side === 'refill'
      ? { ':refilled': nowMs + taken, ':now': nowMs }
      : { ':taken': taken, ':now': nowMs, ':latest': latestPassingTat(policy, nowMs) };
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: bucket,
        UpdateExpression: SIDES[side].update,
        ConditionExpression: SIDES[side].condition,
        ExpressionAttributeNames: { '#tat': 'tat', '#ttl': tableDefinition.ttlAttribute },
        ExpressionAttributeValues: { ...values, ':expires': Math.ceil((nowMs + policy.burst * interval + taken) / 1000) + TTL_GRACE_S },
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { tat: Number(Attributes?.tat) };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return { storedTat: storedTatOf(error) };
  }
}

/** The failed condition's item comes back in DynamoDB's own format (the document client does not unmarshall errors). */
function storedTatOf(error: unknown): number | undefined {
  const tat = (error as { Item?: { tat?: { N?: string } } }).Item?.tat?.N;
  return tat === undefined ? undefined : Number(tat);
}
