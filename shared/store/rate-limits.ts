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
/** Writes of a bucket this instance has on their way: while one is, no request passes without its own. */
const writing = new Map<string, number>();

/**
 * takeFromBucket for buckets a well-behaved client stays far below: the device buckets, where a phone reporting every
 * 30 s meets limits of 10 a second, and two writes a report would cost more than the report's own request
 * (docs/cost.md). While this instance last saw the bucket within `deferrableRequests` of full, and none of its writes
 * of it is on its way, a request passes without a write and is owed; the instance's next write of the bucket counts
 * it too. So a client reporting slower than the bucket refills costs no write once an instance has seen it, and a
 * flood is counted whole. What the limit can miss is bounded: owed requests older than the bucket's refill time are
 * dropped, and an instance can let pass `deferrableRequests` that others already emptied the bucket for, before its
 * next write tells it so.
 */
export async function takeFromQuietBucket(bucket: Key, policy: BucketPolicy, clock: () => number = Date.now): Promise<Allowance> {
  const name = bucket.pk;
  const nowMs = clock();
  const debt = owedAt(name, policy, nowMs);
  const seen = seenTats.get(name);
  const deferrable = deferrableRequests(policy);
  // what the bucket holds as far as this instance knows: the TAT it last saw, moved on by what it owes and this request
  const tatIfPassed = Math.max(seen ?? nowMs, nowMs) + (debt.requests + 1) * intervalMs(policy);
  const quiet = seen !== undefined && !writing.has(name);
  if (quiet && debt.requests < deferrable && tatIfPassed <= nowMs + deferrable * intervalMs(policy)) {
    // the seen TAT stays the stored one: writes on their way meanwhile must guess the stored item's side of now
    owed.set(name, { requests: debt.requests + 1, since: debt.requests === 0 ? nowMs : debt.since });
    return passed(policy, nowMs, tatIfPassed);
  }
  // this write takes what is owed; a write that does not count it hands it back
  owed.delete(name);
  writing.set(name, (writing.get(name) ?? 0) + 1);
  try {
    const { allowance, counted } = await takeCounting(bucket, policy, clock, debt.requests);
    if (!counted && debt.requests > 0) oweAgain(name, debt);
    return allowance;
  } finally {
    const left = (writing.get(name) ?? 1) - 1;
    if (left > 0) writing.set(name, left);
    else writing.delete(name);
  }
}

function oweAgain(name: string, debt: { requests: number; since: number }): void {
  const meanwhile = owed.get(name);
  owed.set(name, meanwhile ? { requests: meanwhile.requests + debt.requests, since: Math.min(meanwhile.since, debt.since) } : debt);
}

function owedAt(name: string, policy: BucketPolicy, nowMs: number): { requests: number; since: number } {
  const debt = owed.get(name);
  if (debt === undefined || nowMs - debt.since > owedForMs(policy)) return { requests: 0, since: nowMs };
  return debt;
}

/** Writes one request may try: a guess, the other side, and two more should a refused write be judged again. */
const MAX_ATTEMPTS = 4;

/**
 * One request, and `owedRequests` that already passed, from the bucket: they are counted whenever this one is. Every
 * attempt is judged at the same instant, so the stored TAT a failed condition answers always names the right side: a
 * TAT only grows, so a refill that found the bucket in use is followed by a drain that can only fail past the burst.
 * (A retry judged at a later instant let a parallel flood pass uncounted: the stored TAT looked idle again.) Only a
 * refusal is judged again, at the time its write answered: a write that waited behind others (many requests of one
 * process, locally) must not be refused for the time it was sent, after later requests have already moved the bucket
 * on.
 */
async function takeCounting(
  bucket: Key,
  policy: BucketPolicy,
  clock: () => number,
  owedRequests: number,
): Promise<{ allowance: Allowance; counted: boolean }> {
  const name = bucket.pk;
  let judgedAt = clock();
  const seen = seenTats.get(name);
  let side: Side = seen === undefined || seen >= judgedAt ? 'drain' : 'refill';
  let storedTat: number | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const outcome = await attemptSide(side, bucket, policy, judgedAt, owedRequests);
    if ('tat' in outcome) return { allowance: remember(name, outcome.tat, passed(policy, judgedAt, outcome.tat)), counted: true };
    storedTat = outcome.storedTat;
    if (isPastBurst(policy, judgedAt, storedTat)) {
      const answeredAt = clock();
      if (isPastBurst(policy, answeredAt, storedTat)) {
        return { allowance: remember(name, storedTat, refused(policy, answeredAt, storedTat)), counted: false };
      }
      judgedAt = answeredAt;
    }
    side = sideOf(storedTat, judgedAt);
  }
  // Still no verdict: each write found the bucket moved on from where it was judged, by others taking its last room.
  // That happens at the burst's edge under a flood, so this request is refused too, to come back an interval later.
  const atTheEdge = Math.max(storedTat ?? judgedAt, latestPassingTat(policy, judgedAt) + intervalMs(policy));
  return { allowance: refused(policy, judgedAt, atTheEdge), counted: false };
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
