/**
 * Every uniqueness rule under parallel requests: exactly one winner, the losers answered with the spec's 409,
 * and the stored claims agreeing with the records afterwards (read back from the table, not only the answers).
 *
 * The plain races are covered beside their operations and not repeated here: 20 adds of one expense name
 * (test/operations/addExpenseType.test.ts), one tag_id raced by adds, by an edit against an add, by edits of
 * several operators and by edits of one operator (addOperator.test.ts, editOperator.test.ts), 20 slips for one
 * fill over HTTP and in the store (addFuelFillSlip.test.ts, test/store/fill-slips.test.ts), parallel deletes
 * (deleteExpenseType, deleteOperator, deleteExpenseSlip tests). This file adds the renames, swaps and frees, and
 * many rounds of parallel edits and deletes of one record: never a 404 while the record lives, claims that follow
 * the live names and tags (read from the table after every round), and a job card history in commit order.
 *
 * The races go through an API emulator in this worker, so the handlers use this file's DynamoDB client, which
 * counts contention: conditional writes DynamoDB refused, and writes sent while another write to the same item was
 * still in flight. Every race shows it really contended (one that never overlaps would pass the checks on the
 * answers and the table without proving anything).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiEmulator, startApiEmulator } from '../../local/api-emulator.ts';
import { freePort } from '../../local/ports.ts';
import { sameExpenseName } from '../../shared/domain/expense-type.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { type Key, keys } from '../../shared/store/keys.ts';
import { batchGet, type Item, itemKey, queryRange } from '../../shared/store/requests.ts';
import { addVehicle } from '../../shared/store/vehicles.ts';
import { type ApiResponse, createApi } from '../support/api.ts';
import { anImei, aVehicle, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenExpenseType, givenFuelFill } from '../support/expense-slips-builders.ts';
import { givenJobCard } from '../support/job-card-builders.ts';
import { anOperator, aTagId, givenOperator } from '../support/operators-builders.ts';

let emulator: ApiEmulator;
const api = createApi(() => emulator.url);

const REFUSED_WRITES = new Set(['ConditionalCheckFailedException', 'TransactionCanceledException']);
let refusedWrites = 0;
let overlappingWrites = 0;
const writesInFlight = new Map<string, number>();

/** The items a write request touches, as `pk|sk`. */
function writtenItems(input: Record<string, any>): string[] {
  const targets = input.TransactItems
    ? input.TransactItems.map((action: Record<string, any>) => {
        const [request] = Object.values(action);
        return request.Key ?? request.Item;
      })
    : [input.Key ?? input.Item];
  return targets.filter(Boolean).map((key: Item) => `${key.pk}|${key.sk}`);
}

beforeAll(async () => {
  emulator = await startApiEmulator({ port: await freePort() });
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const items = /^(Put|Update|Delete|TransactWrite)/.test(context.commandName ?? '')
        ? writtenItems(args.input as Record<string, any>)
        : [];
      if (items.some((key) => (writesInFlight.get(key) ?? 0) > 0)) overlappingWrites++;
      for (const key of items) writesInFlight.set(key, (writesInFlight.get(key) ?? 0) + 1);
      try {
        return await next(args);
      } catch (error) {
        if (error instanceof Error && REFUSED_WRITES.has(error.name)) refusedWrites++;
        throw error;
      } finally {
        for (const key of items) writesInFlight.set(key, (writesInFlight.get(key) ?? 1) - 1);
      }
    },
    { step: 'initialize', name: 'countContention' },
  );
});
afterAll(async () => {
  dynamo().middlewareStack.remove('countContention');
  await emulator.close();
});

/** Refused and overlapping writes so far. */
const contended = () => refusedWrites + overlappingWrites;

/** Since `before`, DynamoDB refused a conditional write or two writes to one item overlapped: the racing requests met. */
const expectContended = (before: number) => expect(contended() - before, 'refused or overlapping writes in the race').toBeGreaterThan(0);

const TYPE_TAKEN = 'expense type already exists';
const TAG_TAKEN = 'tag_id already exists';

const item = async (key: Key) => (await dynamo().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
const won = (results: ApiResponse[]) => results.filter((res) => res.status === 200);
const lost = (results: ApiResponse[]) => results.filter((res) => res.status !== 200);

// ---- expense type names, unique per user among live types -------------------------------------

async function liveTypes(user: TestUser): Promise<{ type: number; name: string }[]> {
  const res = await api.get('getExpenseTypes', { api_key: user.key });
  return res.body.expense_types.filter((type: { type: number }) => type.type !== 2);
}

/** Each name is claimed exactly when a live type has it, and the claim names that type. */
async function expectNameClaimsMatchTypes(user: TestUser, names: string[]): Promise<void> {
  const types = await liveTypes(user);
  for (const name of names) {
    const claim = await item(keys.expenseTypeName(user.userUid, name));
    const holder = types.find((type) => sameExpenseName(type.name, name));
    expect(claim?.type, `the claim of "${name}"`).toBe(holder?.type);
  }
  expect(new Set(types.map((type) => type.name.trim().toLowerCase())).size).toBe(types.length);
}

const rename = (user: TestUser, type: number, expense_name: string) =>
  api.post('editExpenseType', { api_key: user.key, type, expense_name });

describe('expense type names under concurrency', () => {
  it('gives a name to exactly one of several types renamed to it at once; the others keep their names and claims', async () => {
    // Prepare
    const contention = contended();
    const user = await givenUser();
    const names = Array.from({ length: 6 }, (_, i) => `Type ${i + 1}`);
    const types = await Promise.all(names.map((name) => givenExpenseType(user, name)));
    // Act
    const results = await Promise.all(types.map((type, i) => rename(user, type, i % 2 ? 'Tolls' : ' tolls ')));
    // Assess
    expect(won(results)).toHaveLength(1);
    for (const res of lost(results)) expect(res).toBeError(409, TYPE_TAKEN);
    const winner = won(results)[0]!.body;
    const expected = types.map((type, i) => ({ type, name: type === winner.type ? winner.name : names[i] }));
    expect(await liveTypes(user)).toEqual(expected.sort((x, y) => x.type - y.type));
    await expectNameClaimsMatchTypes(user, ['Tolls', ...names]);
    expectContended(contention);
  });

  it('gives a name to exactly one of the adds and renames racing for it', async () => {
    // Prepare
    const contention = contended();
    const user = await givenUser();
    const names = Array.from({ length: 5 }, (_, i) => `Type ${i + 1}`);
    const types = await Promise.all(names.map((name) => givenExpenseType(user, name)));
    // Act
    const results = await Promise.all([
      ...types.map((type) => rename(user, type, 'Parking')),
      ...Array.from({ length: 10 }, () => api.post('addExpenseType', { api_key: user.key, expense_name: 'PARKING' })),
    ]);
    // Assess
    expect(won(results)).toHaveLength(1);
    for (const res of lost(results)) expect(res).toBeError(409, TYPE_TAKEN);
    expect((await liveTypes(user)).filter((type) => sameExpenseName(type.name, 'parking'))).toHaveLength(1);
    await expectNameClaimsMatchTypes(user, ['Parking', ...names]);
    expectContended(contention);
  });

  it('refuses both of two types swapping names at once, leaving both as they were', async () => {
    // Prepare
    const contention = contended();
    const user = await givenUser();
    const [tolls, parking] = [await givenExpenseType(user, 'Tolls'), await givenExpenseType(user, 'Parking')];
    // Act
    const results = await Promise.all([rename(user, tolls, 'Parking'), rename(user, parking, 'Tolls')]);
    // Assess
    for (const res of results) expect(res).toBeError(409, TYPE_TAKEN);
    expect(await liveTypes(user)).toEqual([
      { type: tolls, name: 'Tolls' },
      { type: parking, name: 'Parking' },
    ]);
    await expectNameClaimsMatchTypes(user, ['Tolls', 'Parking']);
    expectContended(contention);
  });

  it('never leaves a name claimed by a deleted type when a rename races its delete', async () => {
    // Prepare
    const contention = contended();
    const user = await givenUser();
    const types = await Promise.all(Array.from({ length: 5 }, (_, i) => givenExpenseType(user, `Old ${i}`)));
    // Act
    const results = await Promise.all(
      // half the pairs send the delete first, so either can reach the table first
      types.flatMap((type, i) => {
        const pair = [() => rename(user, type, `New ${i}`), () => api.post('deleteExpenseType', { api_key: user.key, type })];
        return (i % 2 ? pair.reverse() : pair).map((send) => send());
      }),
    );
    // Assess
    for (const res of lost(results)) expect(res).toBeError(404, 'expense type not found or not linked to this api key');
    await expectNameClaimsMatchTypes(
      user,
      types.flatMap((_, i) => [`Old ${i}`, `New ${i}`]),
    );
    expectContended(contention);
  });
});

/**
 * Every live type's name is claimed by that type, every claim of the user names a live type with that name,
 * and no two live types share a name: read from the table, so a stale claim cannot hide. Answers the live
 * names by type.
 */
async function expectClaimsMatchLiveNames(user: TestUser): Promise<Map<number, string>> {
  const [types, claims] = await Promise.all([
    queryRange(keys.expenseTypeRange(user.userUid)),
    queryRange({ pk: keys.user(user.userUid).pk, prefix: 'EXPTYPENAME#' }),
  ]);
  const live = types.filter((type) => type.deleted === false);
  const claimOf = (type: Item) => itemKey(keys.expenseTypeName(user.userUid, String(type.name)));
  const claimed = new Map(claims.map((claim) => [itemKey(claim), Number(claim.type)]));
  expect(live.map((type) => [type.name, claimed.get(claimOf(type))])).toEqual(live.map((type) => [type.name, type.type]));
  expect(claims).toHaveLength(live.length);
  expect(new Set(live.map(claimOf)).size).toBe(live.length);
  return new Map(live.map((type) => [Number(type.type), String(type.name)]));
}

const ROUNDS = 20;
const BUSY = (thing: string) => `${thing} is being changed by another request, try again`;

describe('expense type names over many rounds of racing renames and deletes', () => {
  it('keeps each claim on its live name, and answers a rename 200 or 409, or 404 only once its type is deleted', async () => {
    // Prepare
    const contention = contended();
    const user = await givenUser();
    const [alpha, bravo, charlie] = (await Promise.all(['Alpha', 'Bravo', 'Charlie'].map((name) => givenExpenseType(user, name)))) as [
      number,
      number,
      number,
    ];
    let doomed = await givenExpenseType(user, 'Doomed 0');
    let names = await expectClaimsMatchLiveNames(user);
    for (let round = 1; round <= ROUNDS; round++) {
      const name = (type: number) => names.get(type) as string;
      // Act: case-only renames, a move to a fresh name, two types racing for one name, a rename onto a live
      // name, and a rename racing the delete of its type and an add of the name it moves to
      const results = await Promise.all([
        rename(user, alpha, name(alpha).toUpperCase()),
        rename(user, alpha, name(alpha).toLowerCase()),
        rename(user, alpha, `Alpha ${round}`),
        rename(user, bravo, `Shared ${round}`),
        rename(user, charlie, ` shared ${round} `),
        rename(user, charlie, name(alpha)),
        rename(user, bravo, name(bravo).toUpperCase()),
        rename(user, doomed, `Doomed ${round}`),
        api.post('deleteExpenseType', { api_key: user.key, type: doomed }),
        api.post('addExpenseType', { api_key: user.key, expense_name: `DOOMED ${round}` }),
      ]);
      // Assess
      const [renamedDoomed, deleted, added] = results.slice(7) as [ApiResponse, ApiResponse, ApiResponse];
      for (const res of results.slice(0, 7)) {
        if (res.status !== 200) expect([TYPE_TAKEN, BUSY('expense type')], `round ${round}`).toContain(res.body.error_msg);
      }
      if (renamedDoomed.status !== 200)
        expect(['expense type not found or not linked to this api key', TYPE_TAKEN]).toContain(renamedDoomed.body.error_msg);
      expect(deleted, `round ${round}`).toBeSuccess();
      if (added.status !== 200) expect(added).toBeError(409, TYPE_TAKEN);
      names = await expectClaimsMatchLiveNames(user);
      expect(names.has(doomed)).toBe(false);
      doomed = added.status === 200 ? added.body.type : await givenExpenseType(user, `Doomed ${round} again`);
      names.set(doomed, added.status === 200 ? `DOOMED ${round}` : `Doomed ${round} again`);
    }
    expectContended(contention);
  }, 60_000);
});

// ---- edits of one existing record ----------------------------------------------------------------

interface EditedRecord {
  /** the record's 409 when it keeps changing under an edit */
  busy: string;
  /** the i-th of a round's parallel edits, each with its own values */
  edit: (round: number, i: number) => Promise<ApiResponse>;
  /** what the record reads back as, compared with the values of the round's successful edits */
  read: () => Promise<unknown>;
  /** what the record reads back as after the i-th edit of the round won last */
  expected: (round: number, i: number) => unknown;
}

const PARALLEL_EDITS = 10;

const editedRecords: Array<[string, (user: TestUser) => Promise<EditedRecord>]> = [
  [
    'an expense type',
    async (user) => {
      const type = await givenExpenseType(user, 'Tolls');
      return {
        busy: BUSY('expense type'),
        edit: (round, i) => rename(user, type, i % 2 ? `Toll ${round}-${i}` : `TOLL ${round}-${i}`),
        read: async () => (await liveTypes(user)).find((live) => live.type === type)?.name,
        expected: (round, i) => (i % 2 ? `Toll ${round}-${i}` : `TOLL ${round}-${i}`),
      };
    },
  ],
  [
    'an expense slip',
    async (user) => {
      const vehicle = await givenVehicle(user);
      const slip = (
        await api.post('addExpenseSlip', {
          api_key: user.key,
          vehicle_uid: vehicle.vehicleUid,
          type: 2,
          amount: '10.00',
          qty: '1',
          event_datetime: '2026-11-01 08:00:00',
        })
      ).body.slip_uid;
      const day = (round: number) => `2026-11-${String(round).padStart(2, '0')}`;
      return {
        busy: BUSY('slip'),
        edit: (round, i) =>
          api.post('editExpenseSlip', {
            api_key: user.key,
            slip_uid: slip,
            comment: `edit ${round}-${i}`,
            event_datetime: `${day(round)} 08:${String(i).padStart(2, '0')}:00`,
          }),
        read: async () => {
          const read = (await api.get('getExpenseSlip', { api_key: user.key, slip_uid: slip })).body.slip;
          return [read.comment, read.event_datetime];
        },
        expected: (round, i) => [`edit ${round}-${i}`, `${day(round)} 08:${String(i).padStart(2, '0')}:00`],
      };
    },
  ],
  [
    'an operator, moving its tag',
    async (user) => {
      const { operatorUid } = await givenOperator(user);
      const tags = new Map<string, string>();
      const tag = (round: number, i: number) => tags.get(`${round}-${i}`) ?? tags.set(`${round}-${i}`, aTagId()).get(`${round}-${i}`)!;
      return {
        busy: BUSY('operator'),
        edit: (round, i) =>
          api.post('editOperator', {
            api_key: user.key,
            operator_uid: operatorUid,
            fullname: `Driver ${round}-${i}`,
            tag_id: tag(round, i),
          }),
        read: async () => {
          const read = (await api.get('getOperator', { api_key: user.key, operator_uid: operatorUid })).body.operator;
          // Only the live tag is claimed, and by this operator.
          const claims = await batchGet([...tags.values()].map((tagId) => keys.operatorTag(tagId)));
          expect(claims.map((claim) => [claim.pk, claim.operator_uid])).toEqual([[keys.operatorTag(read.tag_id).pk, operatorUid]]);
          return [read.fullname, read.tag_id];
        },
        expected: (round, i) => [`Driver ${round}-${i}`, tag(round, i)],
      };
    },
  ],
  [
    'a user location, changing its shape',
    async (user) => {
      const location = (
        await api.post('addUserLocation', { api_key: user.key, description: 'Depot', latitude: -26.2041, longitude: 28.0473 })
      ).body.user_location_uid;
      const square = JSON.stringify([
        { lat: -26.19, lng: 28.03 },
        { lat: -26.19, lng: 28.06 },
        { lat: -26.22, lng: 28.06 },
      ]);
      return {
        busy: BUSY('location'),
        edit: (round, i) =>
          api.post('editUserLocation', {
            api_key: user.key,
            user_location_uid: location,
            description: `Place ${round}-${i}`,
            ...(i % 2 ? { location_type: 'polygon', points: square } : { location_type: 'point' }),
          }),
        read: async () => {
          const read = (await api.get('getUserLocation', { api_key: user.key, user_location_uid: location })).body.location;
          return [read.description, read.location_type, read.points === '' ? 0 : JSON.parse(read.points).length];
        },
        expected: (round, i) => [`Place ${round}-${i}`, i % 2 ? 'polygon' : 'point', i % 2 ? 3 : 0],
      };
    },
  ],
];

describe('edits of one existing record racing each other', () => {
  it.each(editedRecords)(
    'answers every parallel edit of %s 200 or its 409, never 404, and keeps one edit whole',
    async (_, given) => {
      // Prepare
      const contention = contended();
      const user = await givenUser();
      const record = await given(user);
      for (let round = 1; round <= ROUNDS; round++) {
        // Act
        const results = await Promise.all(Array.from({ length: PARALLEL_EDITS }, (_, i) => record.edit(round, i)));
        // Assess
        for (const res of lost(results)) expect(res, `round ${round}`).toBeError(409, record.busy);
        const winners = results.flatMap((res, i) => (res.status === 200 ? [record.expected(round, i)] : []));
        expect(winners.length, `round ${round}`).toBeGreaterThan(0);
        expect(winners).toContainEqual(await record.read());
      }
      expectContended(contention);
    },
    60_000,
  );
});

// ---- job card history, in commit order -----------------------------------------------------------

describe('job card history under parallel edits', () => {
  it('numbers the snapshots of every committed edit in history order, one each, over many rounds', async () => {
    // Prepare
    const contention = contended();
    const user = await givenUser();
    const card = await givenJobCard(user, { Edit: 'created' });
    const committed: string[] = ['created'];
    for (let round = 1; round <= ROUNDS; round++) {
      // Act
      const edits = Array.from({ length: PARALLEL_EDITS }, (_, i) => `${round}-${i}`);
      const results = await Promise.all(
        edits.map((edit) =>
          api.post(
            'editJobCard',
            {},
            {
              query: { api_key: user.key, job_card_uid: card.jobCardUid },
              headers: { 'Content-Type': 'application/json' },
              rawBody: JSON.stringify({ Edit: edit }),
            },
          ),
        ),
      );
      // Assess
      for (const res of lost(results)) expect(res, `round ${round}`).toBeError(409, BUSY('job card'));
      committed.push(...edits.filter((_, i) => results[i]!.status === 200));
      const [history, current] = await Promise.all([
        api.get('getJobCardHistory', { api_key: user.key, job_card_uid: card.jobCardUid }),
        api.get('getJobCard', { api_key: user.key, job_card_uid: card.jobCardUid }),
      ]);
      const snapshots: Array<{ history_uid: number; action: string; payload: { Edit: string } }> = history.body.history;
      expect(snapshots.map((snapshot) => snapshot.payload.Edit).sort()).toEqual([...committed].sort());
      const uids = snapshots.map((snapshot) => snapshot.history_uid);
      expect(uids, `round ${round}: history_uid follows the history`).toEqual([...uids].sort((a, b) => a - b));
      expect(new Set(uids).size).toBe(uids.length);
      expect(snapshots.map((snapshot) => snapshot.action)).toEqual(['create', ...committed.slice(1).map(() => 'edit')]);
      // The last snapshot is the edit that committed last: the card holds its payload.
      expect(current.body.job_card.payload).toEqual(snapshots.at(-1)!.payload);
    }
    expectContended(contention);
  }, 60_000);
});

// ---- tag_id, unique across all users ----------------------------------------------------------

interface Holder {
  user: TestUser;
  operatorUid: number;
}

/** The tag's claim names exactly the one operator, among these users', that holds the tag (or none). */
async function expectTagHeldBy(tag: string, holder: Holder | undefined, users: TestUser[]): Promise<void> {
  const claim = await item(keys.operatorTag(tag));
  expect(claim && { user_uid: claim.user_uid, operator_uid: claim.operator_uid }, `the claim of ${tag}`).toEqual(
    holder && { user_uid: holder.user.userUid, operator_uid: holder.operatorUid },
  );
  const lists = await Promise.all(users.map((user) => api.get('getOperators', { api_key: user.key })));
  const holding = lists.flatMap((res) => res.body.operators).filter((operator: { tag_id: string }) => operator.tag_id === tag);
  expect(holding.map((operator: { operator_uid: number }) => operator.operator_uid)).toEqual(holder ? [holder.operatorUid] : []);
}

/** The one add that won a tag (there may be none), checked against the losers' 409. */
function addWinner(results: ApiResponse[], users: TestUser[]): Holder | undefined {
  expect(won(results).length).toBeLessThanOrEqual(1);
  for (const res of lost(results)) expect(res).toBeError(409, TAG_TAKEN);
  const index = results.findIndex((res) => res.status === 200);
  return index < 0 ? undefined : { user: users[index]!, operatorUid: results[index]!.body.operator_uid };
}

describe('tag_id under concurrency', () => {
  it('refuses both of two operators swapping tags at once, leaving each tag with its holder', async () => {
    // Prepare
    const contention = contended();
    const user = await givenUser();
    const [first, second] = [await givenOperator(user), await givenOperator(user)];
    // Act
    const results = await Promise.all([
      api.post('editOperator', { api_key: user.key, operator_uid: first.operatorUid, tag_id: second.tagId }),
      api.post('editOperator', { api_key: user.key, operator_uid: second.operatorUid, tag_id: first.tagId }),
    ]);
    // Assess
    for (const res of results) expect(res).toBeError(409, TAG_TAKEN);
    await expectTagHeldBy(first.tagId, { user, operatorUid: first.operatorUid }, [user]);
    await expectTagHeldBy(second.tagId, { user, operatorUid: second.operatorUid }, [user]);
    expectContended(contention);
  });

  it.each([
    [
      'renamed away',
      (owner: TestUser, operatorUid: number, newTag: string) =>
        api.post('editOperator', { api_key: owner.key, operator_uid: operatorUid, tag_id: newTag }),
    ],
    ['deleted', (owner: TestUser, operatorUid: number) => api.post('deleteOperator', { api_key: owner.key, operator_uid: operatorUid })],
  ])('gives a tag freed by an operator %s to at most one of the users racing for it', async (how, free) => {
    // Prepare
    const contention = contended();
    const owner = await givenUser();
    const { operatorUid, tagId } = await givenOperator(owner);
    const newTag = aTagId();
    const racers = await Promise.all(Array.from({ length: 10 }, () => givenUser()));
    // Act
    const [freed, ...added] = await Promise.all([
      free(owner, operatorUid, newTag),
      ...racers.map((racer) => api.post('addOperator', { api_key: racer.key, ...anOperator({ tag_id: tagId }) })),
    ]);
    // Assess
    expect(freed).toBeSuccess();
    await expectTagHeldBy(tagId, addWinner(added, racers), [owner, ...racers]);
    await expectTagHeldBy(newTag, how === 'deleted' ? undefined : { user: owner, operatorUid }, [owner]);
    expectContended(contention);
  });
});

describe('tag claims over many rounds of racing tag moves and deletes', () => {
  it('leaves each tag claimed exactly by its live operator, and answers an edit 404 only once its operator is deleted', async () => {
    // Prepare
    const contention = contended();
    const [owner, racer] = await Promise.all([givenUser(), givenUser()]);
    // Half the rounds of the others: every round moves one tag eight ways, so its transactions retry the most.
    for (let round = 1; round <= ROUNDS / 2; round++) {
      const { operatorUid, tagId } = await givenOperator(owner);
      const newTags = Array.from({ length: 8 }, () => aTagId());
      // Act: tag moves racing the operator's delete and another user's add of the tag it started with
      const results = await Promise.all([
        ...newTags.map((tag_id) => api.post('editOperator', { api_key: owner.key, operator_uid: operatorUid, tag_id })),
        api.post('deleteOperator', { api_key: owner.key, operator_uid: operatorUid }),
        api.post('addOperator', { api_key: racer.key, ...anOperator({ tag_id: tagId }) }),
      ]);
      // Assess
      const [deleted, added] = results.slice(8) as [ApiResponse, ApiResponse];
      for (const res of lost(results.slice(0, 8))) {
        expect(['operator not found or not linked to this api key', BUSY('operator')], `round ${round}`).toContain(res.body.error_msg);
      }
      expect(deleted, `round ${round}`).toBeSuccess();
      if (added.status !== 200) expect(added).toBeError(409, TAG_TAKEN);
      const claims = await batchGet([tagId, ...newTags].map((tag) => keys.operatorTag(tag)));
      const holder = added.status === 200 ? [[keys.operatorTag(tagId).pk, racer.userUid, added.body.operator_uid]] : [];
      expect(
        claims.map((claim) => [claim.pk, claim.user_uid, claim.operator_uid]),
        `round ${round}`,
      ).toEqual(holder);
      expect(await item(keys.operator(owner.userUid, operatorUid))).toBeUndefined();
    }
    expectContended(contention);
  }, 60_000);
});

// ---- one slip per fuel fill -------------------------------------------------------------------

const SLIP_EXISTS = /^a slip already exists for this fill: use editExpenseSlip or deleteExpenseSlip with slip_uid (\d+)$/;

describe('one slip per fill under concurrency', () => {
  it('keeps at most one slip on a fill when its slip is deleted while new slips race for it', async () => {
    // Prepare
    const contention = contended();
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const eventUid = await givenFuelFill(vehicle);
    const first = (await api.post('addFuelFillSlip', { api_key: user.key, event_uid: eventUid, qty: '60' })).body.slip_uid;
    // Act
    const [deleted, ...added] = await Promise.all([
      api.post('deleteExpenseSlip', { api_key: user.key, slip_uid: first }),
      ...Array.from({ length: 10 }, () => api.post('addFuelFillSlip', { api_key: user.key, event_uid: eventUid, qty: '55' })),
    ]);
    // Assess
    expect(deleted).toBeSuccess();
    expect(won(added).length).toBeLessThanOrEqual(1);
    const winner: number | undefined = won(added)[0]?.body.slip_uid;
    for (const res of lost(added)) {
      expect(res.status).toBe(409);
      expect([first, winner]).toContain(Number(SLIP_EXISTS.exec(res.body.error_msg)?.[1]));
    }
    const fill = await item(keys.fuelFill(eventUid));
    expect(fill?.slip_uid).toBe(winner);
    expect(await api.get('getExpenseSlip', { api_key: user.key, slip_uid: first })).toBeError(
      404,
      'slip not found or not linked to this api key',
    );
    if (winner !== undefined)
      expect((await api.get('getExpenseSlip', { api_key: user.key, slip_uid: winner })).body.slip).toMatchObject({ type: 1 });
    expectContended(contention);
  });
});

// ---- imei, one vehicle per device (admin CLI: the store's addVehicle) ---------------------------

const vehicleCounter = async (): Promise<number> => Number((await item(keys.counter('vehicle')))?.value ?? 0);

describe('vehicle IMEIs under concurrency', () => {
  it('registers one of 20 vehicles added at once with one IMEI, and stores no vehicle for the others', async () => {
    // Prepare
    const contention = contended();
    const imei = await anImei();
    const firstId = (await vehicleCounter()) + 1;
    // Act
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => addVehicle(aVehicle({ imei, name: `Truck ${i}` }))));
    // Assess
    const winners = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    expect(winners).toHaveLength(1);
    const losers = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    for (const reason of losers) expect(reason).toMatchObject({ status: 409, message: `imei ${imei} is already registered` });
    expect((await item(keys.imeiClaim(imei)))?.vehicle_uid).toBe(winners[0]!.vehicleUid);
    // Ids are taken before the transaction: every vehicle stored since then with this IMEI is the winner.
    const ids = Array.from({ length: (await vehicleCounter()) - firstId + 1 }, (_, i) => firstId + i);
    const stored = await batchGet(ids.map((id) => keys.vehicle(id)));
    expect(stored.filter((vehicle) => vehicle.imei === imei).map((vehicle) => vehicle.vehicle_uid)).toEqual([winners[0]!.vehicleUid]);
    expectContended(contention);
  });
});
