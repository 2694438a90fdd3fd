/**
 * What `npm run smoke` calls, derived from the registry so a new operation needs no edit here: every read operation
 * with its contract's example request, and for every writable resource (`add<X>` with a `delete<X>`) one round trip
 * add → get → edit → delete → get again (404), each with its example request and the ids the add answered.
 */
import { type Operation, operations } from '../../functions/registry.ts';

export type Params = Record<string, unknown>;

/** What the run knows of the key's fleet, for requests that must name a record of the key's user. */
export interface RunContext {
  /** unique per run: names and tags that must not collide with a record already there */
  run: string;
  vehicleUid: number | undefined;
}

/** A record an add made beside its own that the resource's delete keeps: the round trip deletes it after. */
export interface Leftover {
  operation: string;
  params: Params;
}

interface PerRun {
  /** fields of the example that must differ per run, or undefined when the run cannot make the request */
  fields?: (context: RunContext) => Params | undefined;
  /** what the add created beside its record, read from its answer */
  leftovers?: (answer: Params) => Leftover[];
}

/**
 * The one table: what an example needs to run on any account (a name unique per user, a tag unique across users, a
 * record of the key's user rather than the demo's) and what the add leaves beside its record. A resource whose
 * example succeeds on any account, and whose delete removes all it made, needs no line.
 */
const perRun: Readonly<Record<string, PerRun>> = {
  addExpenseType: { fields: ({ run }) => ({ expense_name: `Smoke ${run}` }) },
  editExpenseType: { fields: ({ run }) => ({ expense_name: `Smoke ${run} renamed` }) },
  addOperator: { fields: ({ run }) => ({ tag_id: `SMOKE-${run}` }) },
  // The example's receiver is on the developer's machine, which a deployed stack refuses: an https public address instead.
  addWebhook: { fields: () => ({ url: 'https://93.184.215.14/fleet-events' }) },
  // A slip needs a vehicle of the key's user (without one the round trip is skipped) and a type every user has: fuel.
  addExpenseSlip: { fields: ({ vehicleUid }) => (vehicleUid === undefined ? undefined : { vehicle_uid: vehicleUid, type: 2 }) },
  // Stops by coordinates and no vehicle, so the route names nothing of the demo's; deleteRoute keeps the locations it saved.
  addRoute: {
    fields: () => ({
      stops: [
        { lat: -26.2041, lng: 28.0473, description: 'Smoke start' },
        { lat: -26.1452, lng: 28.0412, description: 'Smoke end' },
      ],
      vehicle_uid: undefined,
    }),
    leftovers: (answer) =>
      ((answer.stops ?? []) as { user_location_uid: number; created: boolean }[])
        .filter((stop) => stop.created)
        .map((stop) => ({ operation: 'deleteUserLocation', params: { user_location_uid: stop.user_location_uid } })),
  },
};

/** The example request with this run's fields, or undefined when the run cannot make it (no vehicle). */
export function requestFor(operation: Operation, context: RunContext): Params | undefined {
  const fields = perRun[operation.name]?.fields;
  const overrides = fields ? fields(context) : {};
  if (!overrides) return undefined;
  const request: Params = { ...operation.examples.request, ...overrides };
  for (const [name, value] of Object.entries(request)) if (value === undefined) delete request[name];
  return request;
}

export const leftoversOf = (add: Operation, answer: Params): Leftover[] => perRun[add.name]?.leftovers?.(answer) ?? [];

/**
 * The run has an api key, no signed-in person: it calls the operations a key may call, and checks that each of a
 * person's operations refuses the key (docs/console.md).
 */
const keyOperations = (): Operation[] => (operations as readonly Operation[]).filter((operation) => !operation.personOnly);
export const personOperations = (): Operation[] => (operations as readonly Operation[]).filter((operation) => operation.personOnly);

export const readOperations = (): Operation[] => keyOperations().filter((operation) => operation.method === 'GET');

export interface RoundTrip {
  resource: string;
  add: Operation;
  /** the fields the add answers that name the record: those the delete's example request takes */
  idFields: string[];
  get: Operation | undefined;
  edit: Operation | undefined;
  delete: Operation;
}

const byName = (name: string): Operation | undefined => keyOperations().find((operation) => operation.name === name);

/** One round trip per `add<X>` that has a `delete<X>`; the adds without one are left to probeOperations. */
export function roundTrips(): RoundTrip[] {
  return keyOperations().flatMap((add) => {
    const resource = /^add(.+)$/.exec(add.name)?.[1];
    const remove = resource ? byName(`delete${resource}`) : undefined;
    if (!resource || !remove) return [];
    const answered = Object.keys(add.examples.response ?? {});
    const idFields = Object.keys(remove.examples.request).filter((field) => answered.includes(field));
    return [{ resource, add, idFields, get: byName(`get${resource}`), edit: byName(`edit${resource}`), delete: remove }];
  });
}

/** An id no record has: a write that names it must answer 404 having changed nothing. */
export const ABSENT_ID = 2_000_000_000;

/**
 * Writes no round trip covers. Those whose example names a record by a `*_uid` field are probed with an id no record
 * has, so their function runs to its lookup and changes nothing; the others would create a record no operation
 * deletes (job cards keep their history by design), so the smoke run leaves them out and says so.
 */
export function uncoveredWrites(): { probed: { operation: Operation; query: Params; body: Params }[]; left: Operation[] } {
  const covered = new Set(roundTrips().flatMap((trip) => [trip.add, trip.edit, trip.delete].map((operation) => operation?.name)));
  const probed: { operation: Operation; query: Params; body: Params }[] = [];
  const left: Operation[] = [];
  for (const operation of keyOperations()) {
    if (operation.method === 'GET' || covered.has(operation.name)) continue;
    const withAbsentIds = (params: Params = {}): [Params, boolean] => {
      const names = Object.keys(params).filter((name) => name.endsWith('_uid'));
      return [{ ...params, ...Object.fromEntries(names.map((name) => [name, ABSENT_ID])) }, names.length > 0];
    };
    const [query, inQuery] = withAbsentIds(operation.examples.query);
    const [body, inBody] = withAbsentIds(operation.examples.request);
    if (inQuery || inBody) probed.push({ operation, query, body });
    else left.push(operation);
  }
  return { probed, left };
}
