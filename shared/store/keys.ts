/**
 * Every key of the single table, one small function each. This is the only module that knows
 * how items are keyed; docs/access-patterns.md lists the access pattern each key serves.
 */
import { createHash } from 'node:crypto';

/** A table item's key. */
export interface Key {
  pk: string;
  sk: string;
}

/** An item's place in the gsi1 index. */
export interface IndexKey {
  gsi1pk: string;
  gsi1sk: string;
}

/**
 * What one Query reads: the items of a partition (of the table, or of gsi1 when `index` says so) whose sort key
 * starts with `prefix`, or lies between `from` and `to` (both inclusive, either may be left open).
 */
export interface Range {
  index?: 'gsi1' | 'quiet';
  pk: string;
  prefix?: string;
  from?: string | undefined;
  to?: string | undefined;
}

/** A track item's place in the sparse `quiet` index: due for the quiet-vehicles check from `quiet_due` on. */
export interface QuietCheckKey {
  quiet_pk: string;
  quiet_due: string;
}

/**
 * The quiet index's partitions: vehicles spread over a few so no partition takes every fleet's writes; the check
 * reads them all in parallel.
 */
export const QUIET_CHECK_SHARDS = 4;

const quietShard = (vehicleUid: number): string => `QUIET#${vehicleUid % QUIET_CHECK_SHARDS}`;

/** Zero-padded ids sort numerically inside a partition. */
const pad = (id: number): string => String(id).padStart(12, '0');

/** Long user-supplied names are hashed so a claim's key stays far below DynamoDB's key size limit. */
const digest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

const jobCardBounds = (from: string | undefined, to: string | undefined) => ({ from, to: to === undefined ? undefined : `${to}~` });

export const keys = {
  counter: (entity: string): Key => ({ pk: `COUNTER#${entity}`, sk: 'COUNTER' }),

  apiKey: (keyHash: string): Key => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** gsi1 of a key item: the user's keys by creation, for the console's list (getApiKeys) */
  apiKeyTimeline: (userUid: number, createdAt: string, apiKeyUid: number): IndexKey => ({
    gsi1pk: `USER#${userUid}#APIKEYS`,
    gsi1sk: `${createdAt}#${pad(apiKeyUid)}`,
  }),
  apiKeyRange: (userUid: number): Range => ({ index: 'gsi1', pk: `USER#${userUid}#APIKEYS` }),
  /** under the owner's partition: a key's id to its hash (the key item's name); another user's api_key_uid is not there */
  apiKeyReference: (userUid: number, apiKeyUid: number): Key => ({ pk: `USER#${userUid}`, sk: `APIKEY#${pad(apiKeyUid)}` }),
  /**
   * a person signed in at an OIDC issuer (its `sub` there), found by a verified access token's iss and sub as a key is by
   * its hash: the bearer token's one lookup. The issuer is hashed, a URL being long.
   */
  person: (issuer: string, subject: string): Key => ({ pk: `PERSON#${digest(issuer)}#${subject}`, sk: 'PERSON' }),
  /** the local provider's sign-in (npm start): one per e-mail address, lower-cased, holding the password's scrypt hash */
  login: (email: string): Key => ({ pk: `LOGIN#${email.toLowerCase()}`, sk: 'LOGIN' }),
  /** one token bucket per api key (its theoretical arrival time): a key's own item, so only that key's traffic heats it */
  rateBucket: (keyHash: string): Key => ({ pk: `RATE#${keyHash}`, sk: 'RATE' }),
  /** the device entry points' buckets (docs/devices.md, "Security"): one per device token, one per IMEI, as the api keys' */
  deviceTokenBucket: (tokenHash: string): Key => ({ pk: `RATE#TOKEN#${tokenHash}`, sk: 'RATE' }),
  imeiBucket: (imei: string): Key => ({ pk: `RATE#IMEI#${imei}`, sk: 'RATE' }),
  /** an Idempotency-Key is the client's, so it is scoped to the key's user and hashed to bound its size */
  idempotencyRecord: (userUid: number, operation: string, idempotencyKey: string): Key => ({
    pk: `IDEMPOTENCY#${userUid}#${digest(idempotencyKey)}`,
    sk: `OPERATION#${operation}`,
  }),
  /** every idempotency record's partition key, as an IAM `dynamodb:LeadingKeys` pattern */
  idempotencyRecordPattern: 'IDEMPOTENCY#*',
  user: (userUid: number): Key => ({ pk: `USER#${userUid}`, sk: 'PROFILE' }),
  /** a device token, found by its hash as an api key is; gsi1 lists a user's tokens by creation */
  deviceToken: (tokenHash: string): Key => ({ pk: `DEVTOKEN#${tokenHash}`, sk: 'DEVTOKEN' }),
  deviceTokenTimeline: (userUid: number, createdAt: string, tokenId: string): IndexKey => ({
    gsi1pk: `USER#${userUid}#DEVTOKENS`,
    gsi1sk: `${createdAt}#${tokenId}`,
  }),
  deviceTokenRange: (userUid: number): Range => ({ index: 'gsi1', pk: `USER#${userUid}#DEVTOKENS` }),
  /** the user's token by its id (holds its hash): deleteDeviceToken's one read */
  deviceTokenReference: (userUid: number, tokenId: string): Key => ({ pk: `USER#${userUid}`, sk: `DEVTOKEN#${tokenId}` }),

  vehicle: (vehicleUid: number): Key => ({ pk: `VEHICLE#${vehicleUid}`, sk: 'VEHICLE' }),
  imeiClaim: (imei: string): Key => ({ pk: `IMEI#${imei}`, sk: 'IMEI' }),
  vehicleLink: (userUid: number, vehicleUid: number): Key => ({ pk: `USER#${userUid}`, sk: `VEHICLE#${pad(vehicleUid)}` }),
  vehicleLinkRange: (userUid: number): Range => ({ pk: `USER#${userUid}`, prefix: 'VEHICLE#' }),
  /** gsi1 of a link: the users of a vehicle, whose locations name its trips and fills */
  vehicleUser: (vehicleUid: number, userUid: number): IndexKey => ({
    gsi1pk: `VEHICLE#${vehicleUid}#USERS`,
    gsi1sk: `USER#${pad(userUid)}`,
  }),
  vehicleUserRange: (vehicleUid: number): Range => ({ index: 'gsi1', pk: `VEHICLE#${vehicleUid}#USERS` }),

  /** trips sort by their UTC start so a date range is one Query; one trip per vehicle and start keeps reprocessing idempotent */
  trip: (vehicleUid: number, startTime: string): Key => ({ pk: `VEHICLE#${vehicleUid}`, sk: `TRIP#${startTime}` }),
  tripRange: (vehicleUid: number, from: string, to: string): Range => ({
    pk: `VEHICLE#${vehicleUid}`,
    from: `TRIP#${from}`,
    to: `TRIP#${to}~`,
  }),
  /** a detected fuel drop (fuel.dropped), by the start of the level's fall: what re-detection compares with */
  fuelDrop: (vehicleUid: number, at: string): Key => ({ pk: `VEHICLE#${vehicleUid}`, sk: `FUELDROP#${at}` }),
  fuelDropRange: (vehicleUid: number, from: string): Range => ({ pk: `VEHICLE#${vehicleUid}`, from: `FUELDROP#${from}`, to: 'FUELDROP#~' }),

  expenseType: (userUid: number, type: number): Key => ({ pk: `USER#${userUid}`, sk: `EXPTYPE#${pad(type)}` }),
  expenseTypeRange: (userUid: number): Range => ({ pk: `USER#${userUid}`, prefix: 'EXPTYPE#' }),
  /** one claim per live name, compared trimmed and case-insensitively */
  expenseTypeName: (userUid: number, name: string): Key => ({
    pk: `USER#${userUid}`,
    sk: `EXPTYPENAME#${digest(name.trim().toLowerCase())}`,
  }),
  // expense slips
  slip: (slipUid: number): Key => ({ pk: `SLIP#${slipUid}`, sk: 'SLIP' }),
  /**
   * gsi1 lists a vehicle's expense and fuel slips by event_datetime (the user's local time as entered,
   * so text order is time order); fill slips carry no gsi1 key and stay out of the list.
   */
  slipTimeline: (vehicleUid: number, eventDatetime: string, slipUid: number): IndexKey => ({
    gsi1pk: `VEHICLE#${vehicleUid}#SLIPS`,
    gsi1sk: `${eventDatetime}#${pad(slipUid)}`,
  }),
  slipTimelineRange: (vehicleUid: number, from: string, to: string): Range => ({
    index: 'gsi1',
    pk: `VEHICLE#${vehicleUid}#SLIPS`,
    from,
    to: `${to}~`,
  }),
  // operators
  /** under the owner's partition: another user's operator_uid is simply not there */
  operator: (userUid: number, operatorUid: number): Key => ({ pk: `USER#${userUid}`, sk: `OPERATOR#${pad(operatorUid)}` }),
  operatorRange: (userUid: number): Range => ({ pk: `USER#${userUid}`, prefix: 'OPERATOR#' }),
  /** one claim per tag_id across all users (trimmed, case-sensitive); holds the owner and operator_uid */
  operatorTag: (tagId: string): Key => ({ pk: `TAG#${tagId}`, sk: 'TAG' }),
  // user locations
  /** under the owner's partition: another user's user_location_uid is simply not there */
  userLocation: (userUid: number, userLocationUid: number): Key => ({ pk: `USER#${userUid}`, sk: `USERLOC#${pad(userLocationUid)}` }),
  userLocationRange: (userUid: number): Range => ({ pk: `USER#${userUid}`, prefix: 'USERLOC#' }),
  /** a counter every change of the user's locations moves on, in the change's transaction (shared/pipeline/zone-cache.ts) */
  userLocationsVersion: (userUid: number): Key => ({ pk: `USER#${userUid}`, sk: 'LOCATIONS-VERSION' }),
  // job cards
  /** under the owner's partition: another user's job_card_uid is simply not there */
  jobCard: (userUid: number, jobCardUid: number): Key => ({ pk: `USER#${userUid}`, sk: `JOBCARD#${pad(jobCardUid)}` }),
  /** gsi1 of a card: the user's cards ordered by creation (UTC, the id breaking ties), so a date range newest first is one Query */
  jobCardTimeline: (userUid: number, createdAt: string, jobCardUid: number): IndexKey => ({
    gsi1pk: `USER#${userUid}#JOBCARDS`,
    gsi1sk: `${createdAt}#${pad(jobCardUid)}`,
  }),
  /** `~` sorts after the `#<id>` suffix, so the last millisecond of `to` is included */
  jobCardTimeRange: (userUid: number, from?: string, to?: string): Range => ({
    index: 'gsi1',
    pk: `USER#${userUid}#JOBCARDS`,
    ...jobCardBounds(from, to),
  }),
  /** one small item per card carrying a reference, sorted like the timeline, so the exact-match filter is a Query too */
  jobCardReference: (userUid: number, reference: string, createdAt: string, jobCardUid: number): Key => ({
    pk: `USER#${userUid}#JOBREF#${reference}`,
    sk: `${createdAt}#${pad(jobCardUid)}`,
  }),
  jobCardReferenceRange: (userUid: number, reference: string, from?: string, to?: string): Range => ({
    pk: `USER#${userUid}#JOBREF#${reference}`,
    ...jobCardBounds(from, to),
  }),
  /** a snapshot, by the card's revision, so the history is oldest first in commit order */
  jobCardSnapshot: (userUid: number, jobCardUid: number, revision: number): Key => ({
    pk: `USER#${userUid}#JOBCARD#${pad(jobCardUid)}`,
    sk: `HISTORY#${pad(revision)}`,
  }),
  /** every card has its 'create' snapshot, so an empty history means no such card */
  jobCardHistoryRange: (userUid: number, jobCardUid: number): Range => ({
    pk: `USER#${userUid}#JOBCARD#${pad(jobCardUid)}`,
    prefix: 'HISTORY#',
  }),
  // routes
  /** under the owner's partition: another user's route_uid is simply not there */
  route: (userUid: number, routeUid: number): Key => ({ pk: `USER#${userUid}`, sk: `ROUTE#${pad(routeUid)}` }),
  routeRange: (userUid: number): Range => ({ pk: `USER#${userUid}`, prefix: 'ROUTE#' }),
  /** a vehicle's schedule beside its trips: one item per route the vehicle is scheduled onto */
  vehicleSchedule: (vehicleUid: number, routeUid: number): Key => ({ pk: `VEHICLE#${vehicleUid}`, sk: `SCHEDULE#${pad(routeUid)}` }),
  vehicleScheduleRange: (vehicleUid: number): Range => ({ pk: `VEHICLE#${vehicleUid}`, prefix: 'SCHEDULE#' }),
  // positions pipeline
  /**
   * what the detector carries from one batch to the next, with a version for optimistic concurrency,
   * and the live record: one item, so a batch writes one item per vehicle plus what it found
   */
  trackState: (vehicleUid: number): Key => ({ pk: `VEHICLE#${vehicleUid}`, sk: 'TRACK' }),
  /** the vehicle of a track item's key (as the quiet index answers it) */
  vehicleUidOfTrack: (key: { pk?: unknown }): number => Number(String(key.pk ?? '').slice('VEHICLE#'.length)),
  /**
   * position history: one chunk per vehicle, batch and hour (a batch's points of one hour, compactly encoded),
   * sorted by its first point; the content hash makes a replayed batch overwrite its own chunk
   */
  positionChunk: (vehicleUid: number, firstAt: string, contentHash: string): Key => ({
    pk: `VEHICLE#${vehicleUid}#POSITIONS`,
    sk: `${firstAt}#${contentHash}`,
  }),
  /** the instant of a chunk's first point, read back from its sort key */
  positionChunkFirstAt: (item: { sk?: unknown }): string => String(item.sk ?? '').split('#')[0] as string,
  /** a chunk holds one hour's points, so chunks that may hold points from `from` on start at from's hour */
  positionChunkRange: (vehicleUid: number, from: string, to: string): Range => ({
    pk: `VEHICLE#${vehicleUid}#POSITIONS`,
    from: keys.positionChunkLowest(from),
    to: `${to}~`,
  }),
  /** the lowest sort key a chunk that may hold points from `from` on can have: from's hour */
  positionChunkLowest: (from: string): string => from.slice(0, 13),
  /**
   * the quiet-vehicles check (docs/positions-pipeline.md, "Quiet vehicles"): the track item's key in the sparse index,
   * due from an instant (UTC ISO); a vehicle leaves the index once nothing more is due for its silence
   */
  quietCheck: (vehicleUid: number, dueAt: string): QuietCheckKey => ({ quiet_pk: quietShard(vehicleUid), quiet_due: dueAt }),
  /** the vehicle's partition of the quiet index, for a write that sets its due time from another attribute */
  quietShard: (vehicleUid: number): string => quietShard(vehicleUid),
  /** one shard's vehicles due at or before an instant */
  quietCheckRange: (shard: number, dueBy: string): Range => ({ index: 'quiet', pk: `QUIET#${shard}`, to: dueBy }),
  /** the detector's state before the first point of an hour: where re-detection starts */
  checkpoint: (vehicleUid: number, hour: string): Key => ({ pk: `VEHICLE#${vehicleUid}#CHECKPOINTS`, sk: hour }),
  /** the checkpoints up to an hour: the last of them is where re-detection of that hour starts */
  checkpointRange: (vehicleUid: number, upToHour: string): Range => ({ pk: `VEHICLE#${vehicleUid}#CHECKPOINTS`, to: upToHour }),
  /** a detected fuel fill, found by its event_uid; its slip_uid (one slip per fill) lives on it */
  fuelFill: (eventUid: number): Key => ({ pk: `FUELFILL#${eventUid}`, sk: 'FUELFILL' }),
  /** gsi1 of a fill: a vehicle's fills by UTC time, so a report's date range is one Query */
  fuelFillTimeline: (vehicleUid: number, at: string, eventUid: number): IndexKey => ({
    gsi1pk: `VEHICLE#${vehicleUid}#FILLS`,
    gsi1sk: `${at}#${pad(eventUid)}`,
  }),
  fuelFillRange: (vehicleUid: number, from: string, to: string): Range => ({
    index: 'gsi1',
    pk: `VEHICLE#${vehicleUid}#FILLS`,
    from,
    to: `${to}~`,
  }),
  // events (docs/events.md, "Storage")
  /**
   * the vehicle's log of its vehicle facts (not zone facts, which are one user's): in its partition by emission time and
   * the vehicle's sequence; what `vehicle link` copies into a newly linked user's feed
   */
  event: (vehicleUid: number, emittedAt: string, sequence: number): Key => ({
    pk: `VEHICLE#${vehicleUid}#EVENTS`,
    sk: `${emittedAt}#${pad(sequence)}`,
  }),
  /** a vehicle's log from a sort key on (inclusive) */
  eventRange: (vehicleUid: number, from: string): Range => ({ pk: `VEHICLE#${vehicleUid}#EVENTS`, from }),
  /**
   * one item per event and recipient in the user's feed, by when it was appended and the user's feed sequence, both
   * allocated in the commit's transaction: the sort key grows with the sequence, so a feed position is one sort key
   */
  feedEvent: (userUid: number, appendedAt: string, sequence: number): Key => ({
    pk: `USER#${userUid}#FEED`,
    sk: `${appendedAt}#${pad(sequence)}`,
  }),
  /**
   * the user's feed from an instant on (inclusive), or after a feed item's sort key (`~` sorts after its last digit and
   * before the next sequence); `#` sorts before every appended_at, so the counter and copy notes are never in it
   */
  feedRange: (userUid: number, from: { since: string } | { after: string }): Range => ({
    pk: `USER#${userUid}#FEED`,
    from: 'since' in from ? from.since : `${from.after}~`,
  }),
  /** the user's feed sequence and its last appended_at, updated in every transaction that appends to the feed */
  feedCounter: (userUid: number): Key => ({ pk: `USER#${userUid}#FEED`, sk: '#COUNTER' }),
  /** gsi1 of a feed item: an event of the user's feed by its event_id (redeliverEvents) */
  feedEventById: (userUid: number, eventId: string): IndexKey => ({ gsi1pk: `USER#${userUid}#EVENT#${eventId}`, gsi1sk: 'FEED' }),
  feedEventByIdRange: (userUid: number, eventId: string): Range => ({ index: 'gsi1', pk: `USER#${userUid}#EVENT#${eventId}` }),
  /** how far a vehicle's log has been copied into a user's feed (vehicle link, the feed migration): a re-run goes on from there */
  feedCopy: (userUid: number, vehicleUid: number): Key => ({ pk: `USER#${userUid}#FEED`, sk: `#COPIED#${pad(vehicleUid)}` }),
  /** a standing zone or speeding fact, by the instant of the point that decided it: what re-detection from a checkpoint compares with */
  zoneFact: (vehicleUid: number, decidedAt: string, eventId: string): Key => ({
    pk: `VEHICLE#${vehicleUid}#ZONEFACTS`,
    sk: `${decidedAt}#${eventId}`,
  }),
  zoneFactRange: (vehicleUid: number, from: string): Range => ({ pk: `VEHICLE#${vehicleUid}#ZONEFACTS`, from }),
  // webhooks
  /** under the owner's partition: another user's webhook_uid is simply not there */
  webhook: (userUid: number, webhookUid: number): Key => ({ pk: `USER#${userUid}`, sk: `WEBHOOK#${pad(webhookUid)}` }),
  webhookRange: (userUid: number): Range => ({ pk: `USER#${userUid}`, prefix: 'WEBHOOK#' }),
  /** how many endpoints the user has, written in the transaction of every add and delete: the cap holds under concurrency */
  webhookCount: (userUid: number): Key => ({ pk: `USER#${userUid}`, sk: 'WEBHOOKCOUNT' }),
  /** one of an endpoint's delivery slots (its concurrency cap), each its own partition so the sender's leases never contend */
  webhookSlot: (userUid: number, webhookUid: number, slot: number): Key => ({
    pk: `WEBHOOKSLOT#${userUid}#${pad(webhookUid)}#${slot}`,
    sk: 'SLOT',
  }),
  // webhook deliveries (docs/webhooks.md, "The delivery log")
  /** one item per attempt in the endpoint's own partition (under its owner), sorted by when it was made */
  deliveryAttempt: (userUid: number, webhookUid: number, attemptedAt: string, eventId: string, attempt: number): Key => ({
    pk: `USER#${userUid}#WEBHOOK#${pad(webhookUid)}#DELIVERIES`,
    sk: `${attemptedAt}#${eventId}#${pad(attempt)}`,
  }),
  deliveryAttemptRange: (userUid: number, webhookUid: number): Range => ({ pk: `USER#${userUid}#WEBHOOK#${pad(webhookUid)}#DELIVERIES` }),
  /** gsi1 of an attempt: one event's attempts at the endpoint, by time, so the log filtered by event_id is one Query */
  deliveryAttemptOfEvent: (userUid: number, webhookUid: number, eventId: string, attemptedAt: string, attempt: number): IndexKey => ({
    gsi1pk: `USER#${userUid}#WEBHOOK#${pad(webhookUid)}#EVENT#${eventId}`,
    gsi1sk: `${attemptedAt}#${pad(attempt)}`,
  }),
  deliveryAttemptOfEventRange: (userUid: number, webhookUid: number, eventId: string): Range => ({
    index: 'gsi1',
    pk: `USER#${userUid}#WEBHOOK#${pad(webhookUid)}#EVENT#${eventId}`,
  }),
  // reverse geocoding cache
  /**
   * a provider's address for one cell of rounded coordinates (shared by every user: an address is public, zones are
   * never cached); each cell its own partition, so a busy depot is one small item and never a hot key
   */
  geocodedPlace: (provider: string, cell: string): Key => ({ pk: `PLACE#${cell}`, sk: `ADDRESS#${provider}` }),
} as const;
