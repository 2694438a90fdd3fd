/**
 * Every event type as the pipeline and the quiet-vehicles check really emit it, read back through getEvents, and
 * testWebhook's delivery as an endpoint receives it, validated against the OpenAPI document the local server serves:
 * getEvents' answer against its response schema, each event against the body of its type's webhook, a delivery's
 * Standard Webhooks headers against the webhook's header parameters. The schemas are closed for the check (no field
 * the document does not list), so a field an emitter adds without its contract fails here.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as checkQuietVehiclesHandler } from '../../functions/checkQuietVehicles/handler.ts';
import type { FleetEvent } from '../../shared/domain/events/event.ts';
import { EVENT_TYPES } from '../../shared/domain/events/event-types.ts';
import { newLocation } from '../../shared/domain/user-location.ts';
import { WEBHOOK_TEST_TYPE } from '../../shared/domain/webhooks/attempt.ts';
import type { OpenApiDocument } from '../../shared/openapi.ts';
import { addUserLocation } from '../../shared/store/user-locations.ts';
import { demoTheftDay, demoZones, interleave, places } from '../../simulator/index.ts';
import { api, callOperation } from '../support/api.ts';
import { arrivalOrders } from '../support/arrival-orders.ts';
import { asFunction } from '../support/as-function.ts';
import { anImei, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { deliverDays } from '../support/fleet-truth.ts';
import { CLIENT, DEPOT, drive, ingest } from '../support/position-builders.ts';
import { givenWebhook } from '../support/webhook-builders.ts';
import { givenReceiver } from '../support/webhook-receiver.ts';

const DOCUMENT_ID = 'urn:fleet-tracking:event-payloads';
let document: OpenApiDocument;
const ajv = new Ajv2020({ allErrors: true });
formats.default(ajv);

/** Every object schema that lists its properties refuses others. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closed(value)]));
  return 'properties' in copy && !('additionalProperties' in copy) ? { ...copy, additionalProperties: false } : copy;
}

function expectValid(ref: string, value: unknown, what: string): void {
  const validate = ajv.getSchema(`${DOCUMENT_ID}${ref}`);
  expect(validate, `no schema ${ref}`).toBeDefined();
  expect(validate?.(value), `${what}: ${ajv.errorsText(validate?.errors)}\n${JSON.stringify(value)}`).toBe(true);
}

/** The schema of the body a type's webhook delivers. */
const bodyRefOf = (type: string): string => {
  const webhook = document.webhooks[type]?.post;
  expect(webhook, `no webhook for ${type}`).toBeDefined();
  const schema = webhook?.requestBody.content['application/json']?.schema as { $ref?: string } | undefined;
  return String(schema?.$ref);
};

const FEED = { since: '2000-01-01 00:00:00', limit: 1000 };

/** The simulated theft day of the demo fleet with the demo's zones: trips, fills, drops, zones and speeding. */
async function theftDayFeed(): Promise<unknown> {
  const days = demoTheftDay('2000-02-03', await Promise.all([anImei(), anImei(), anImei()]), 1);
  const zones = [
    ...places.map((place) => ({ description: place.name, latitude: place.lat, longitude: place.lng, radius: 0.4 })),
    ...demoZones(),
  ];
  const addZones = async (user: TestUser) => {
    for (const params of zones) await addUserLocation(user.userUid, newLocation(params));
  };
  const { user } = await deliverDays(days, arrivalOrders.inOrder(interleave(days), 400), addZones);
  return (await api.get('getEvents', { api_key: user.key, ...FEED })).body;
}

/** The quiet-vehicles check at `now` (its clock set here: year 2000, before every other test's), as the schedule runs it. */
const checkQuietVehicles = (now: Date) =>
  asFunction('checkQuietVehicles', () =>
    checkQuietVehiclesHandler(
      { time: now.toISOString(), detail: {} } as never,
      { functionName: 'checkQuietVehicles', awsRequestId: crypto.randomUUID() } as never,
    ),
  );

/**
 * A drive cut off on the road: the check declares the device offline and closes its trip; the rest of the drive,
 * buffered by the device, brings it online and voids the early trip.completed.
 */
async function silenceFeed(): Promise<unknown> {
  const user = await givenUser();
  const vehicle = await givenVehicle(user);
  const { records } = drive(vehicle.imei, '2000-01-05T06:00:00.000Z', 20, DEPOT, CLIENT);
  await ingest(records.slice(0, 20), undefined, new Date('2000-01-05T06:10:00.000Z'));
  await checkQuietVehicles(new Date('2000-01-05T07:10:00.000Z'));
  await ingest(records.slice(20), undefined, new Date('2000-01-05T07:30:00.000Z'));
  return (await api.get('getEvents', { api_key: user.key, ...FEED })).body;
}

let answers: unknown[];
let events: FleetEvent[];

beforeAll(async () => {
  const res = await fetch(`${inject('apiUrl')}/api/openapi.json`);
  document = (await res.json()) as OpenApiDocument;
  ajv.addKeyword('components');
  ajv.addKeyword('example');
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: closed(document.components.schemas) } });
  answers = [await theftDayFeed(), await silenceFeed()];
  events = answers.flatMap((answer) => (answer as { events: FleetEvent[] }).events);
}, 600_000);

describe('event payloads', () => {
  it('are emitted for every type by the pipeline and the quiet-vehicles check', () => {
    expect([...new Set(events.map((event) => event.type))].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it("fit getEvents' documented answer", () => {
    for (const answer of answers) {
      expectValid('#/components/schemas/GetEventsResponse', answer, 'getEvents');
    }
  });

  it("fit, each, the body of its type's webhook and no other type's", () => {
    for (const event of events) {
      expectValid(bodyRefOf(event.type), event, event.type);
      const other = EVENT_TYPES.find((type) => type !== event.type) as string;
      expect(ajv.getSchema(`${DOCUMENT_ID}${bodyRefOf(other)}`)?.(event), `${event.type} taken as ${other}`).toBe(false);
    }
  });
});

describe('the webhooks of the document', () => {
  it('are one per event type and webhook.test, each a POST of its event with the Standard Webhooks headers', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES, WEBHOOK_TEST_TYPE].sort());
    for (const [type, { post }] of Object.entries(document.webhooks)) {
      expect(
        post.parameters.map(({ name, in: place, required }) => `${place} ${name} ${required}`),
        type,
      ).toEqual(['header webhook-id true', 'header webhook-timestamp true', 'header webhook-signature true']);
      expect(post.requestBody.required, type).toBe(true);
      expect(Object.keys(post.responses).sort(), type).toEqual(['2XX', '410', 'default']);
    }
  });

  it("give each delivery an example that fits its body and headers, the headers naming the example's event", () => {
    for (const [type, { post }] of Object.entries(document.webhooks)) {
      const example = post.requestBody.content['application/json']?.example as { event_id: string };
      expectValid(bodyRefOf(type), example, `${type} example`);
      for (const { name, schema, example: header } of post.parameters) {
        expect(ajv.validate(schema as object, header), `${type} ${name}: ${String(header)}`).toBe(true);
      }
      expect(post.parameters[0]?.example).toBe(example.event_id);
    }
  });

  it("describe testWebhook's delivery as the endpoint receives it: its body and headers", async () => {
    // Prepare
    const user = await givenUser();
    const endpoint = await givenReceiver();
    const webhook = await givenWebhook(user, { url: endpoint.url });
    // Act
    await callOperation('testWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    await endpoint.close();
    // Assess
    const [delivery] = endpoint.received;
    expectValid(bodyRefOf(WEBHOOK_TEST_TYPE), JSON.parse(delivery?.body ?? ''), WEBHOOK_TEST_TYPE);
    for (const { name, schema } of document.webhooks[WEBHOOK_TEST_TYPE]?.post.parameters ?? []) {
      expect(ajv.validate(schema as object, delivery?.headers[name]), `${name}: ${delivery?.headers[name]}`).toBe(true);
    }
  });
});
