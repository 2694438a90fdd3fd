/**
 * The service's OpenAPI 3.1 document, made from the operations' declarations (functions/<name>/contract.ts, collected
 * by functions/registry.ts and passed in: nothing under shared/ imports functions/): their valibot input and output
 * schemas, whose actions and metadata state every limit once, their summaries, descriptions, examples and the 409
 * messages the modules that enforce them word. The local server serves it at
 * /api/openapi.json with a reference page at /api/docs (shared/api-docs.ts), `npm run openapi` writes it,
 * `npm run postman` turns it into a Postman collection, and the CDK stack serves it too and turns it into
 * API Gateway documentation parts.
 */
import { type ConversionConfig, type JsonSchema, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { API_VERSION, ErrorEnvelope, SuccessEnvelope } from './contracts/envelope.ts';
import { EVENT_SCHEMAS, eventSchemaName, exampleEvent, exampleTestEvent, WebhookTestEvent } from './contracts/events.ts';
import { SlipRecord } from './contracts/expense-slips.ts';
import { ExpenseTypeRecord } from './contracts/expense-types.ts';
import { FuelFillRecord } from './contracts/fuel-fills.ts';
import { JobCardDocument, JobCardRecord, JobCardSnapshotRecord } from './contracts/job-cards.ts';
import { type Area, accessOf, type InputSchema, type OperationDeclaration } from './contracts/operation.ts';
import { OperatorRecord } from './contracts/operators.ts';
import { RouteRecord, RouteSummary } from './contracts/routes.ts';
import { TripRecord } from './contracts/trips.ts';
import { UserLocationRecord } from './contracts/user-locations.ts';
import { LiveRecord, VehicleRecord } from './contracts/vehicles.ts';
import { decimalTextUpTo, IDEMPOTENCY_KEY, integerTextUpTo } from './contracts/wire.ts';
import { isEventType } from './domain/events/event-types.ts';
import { AnswerTooLarge, NotFound } from './errors.ts';
import { MAX_BODY_BYTES } from './middleware/parse-request.ts';

export interface ParameterObject {
  name: string;
  in: 'query' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
  example?: unknown;
}

interface MediaTypeObject {
  schema: JsonSchema;
  example?: unknown;
}

export interface OperationObject {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  parameters: ParameterObject[];
  /** a signed-in person's operation: the bearer token only */
  security?: Record<string, string[]>[];
  requestBody?: { description: string; required: boolean; content: Record<string, MediaTypeObject> };
  responses: Record<string, unknown>;
}

export interface OpenApiDocument {
  openapi: string;
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier?: string; url?: string };
    contact: Record<string, string>;
  };
  servers: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  /** the POSTs a webhook endpoint receives, one per event type (OpenAPI 3.1's top-level webhooks) */
  webhooks: Record<string, { post: WebhookObject }>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
}

export interface WebhookObject {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  parameters: ParameterObject[];
  requestBody: { description: string; required: true; content: Record<string, MediaTypeObject> };
  responses: Record<string, { description: string }>;
}

/** Every body a webhook delivery carries: each event type's object, and testWebhook's. */
const DELIVERED_EVENTS: Record<string, v.GenericSchema> = { ...EVENT_SCHEMAS, 'webhook.test': WebhookTestEvent };

/** Records several operations answer: components of their own, referenced where they appear. */
const SHARED_RECORDS = {
  ...Object.fromEntries(Object.entries(DELIVERED_EVENTS).map(([type, schema]) => [eventSchemaName(type), schema])),
  VehicleRecord,
  LiveRecord,
  TripRecord,
  ExpenseTypeRecord,
  SlipRecord,
  OperatorRecord,
  UserLocationRecord,
  FuelFillRecord,
  JobCardDocument,
  JobCardRecord,
  JobCardSnapshotRecord,
  RouteRecord,
  RouteSummary,
  ErrorEnvelope,
};

const ERROR_RESPONSES = {
  400: {
    name: 'BadRequest',
    description: 'A parameter is missing or invalid; error_msg names the first one, in parameter order.',
    example: 'vehicle_uid is required and must be an integer',
  },
  401: { name: 'Unauthorized', description: 'No API key, or one nobody has.', example: 'api key missing' },
  403: { name: 'Forbidden', description: 'The API key is locked.', example: 'api key locked' },
  404: {
    name: 'NotFound',
    description: 'A record the request names does not exist or belongs to another user.',
    example: NotFound.notLinked('vehicle').message,
  },
  405: {
    name: 'MethodNotAllowed',
    description: 'The resource answers every method, a wrong one with this.',
    example: 'method not allowed, use POST',
  },
  409: {
    name: 'Conflict',
    description: 'A uniqueness rule, or a concurrent change to the same record (try again).',
    example: 'tag_id already exists',
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'The body is over the limit.',
    example: `request body too large (max ${MAX_BODY_BYTES / 1024} KB)`,
  },
  422: {
    name: 'AnswerTooLarge',
    description:
      "The answer would pass Lambda's 6 MB (counted after gzip when the client accepts it): nothing was built; narrow the request " +
      'or page it with limit and cursor (docs/paging.md).',
    example: new AnswerTooLarge().message,
  },
  429: {
    name: 'Throttled',
    description: 'Over the per-api-key rate limit, or throttled by AWS; retry after a pause.',
    example: 'too many requests for this api key, retry later',
  },
  500: {
    name: 'InternalError',
    description: 'Anything unexpected; details only in the service log, with the request id.',
    example: 'internal error',
  },
  502: {
    name: 'ProviderFailed',
    description: 'The third-party map or directions provider failed or did not answer in time.',
    example: 'directions provider osrm could not be reached',
  },
  503: {
    name: 'ServiceUnavailable',
    description:
      'DynamoDB, S3 or Secrets Manager did not answer within about 3 s, or the function ran out of time; ' +
      'nothing was half-written, retry later.',
    example: 'service unavailable, retry later',
  },
} as const;

type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** Parameters that name one of the user's records (type: an expense type). */
const namesARecord = (parameter: string): boolean => parameter.endsWith('_uid') || parameter === 'type';

const componentRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const pascalCase = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

/** Text the service reads as a number, when its schema bounds it no further. */
const INTEGER_TEXT = '^-?\\d{1,16}$';
const DECIMAL_TEXT = '^-?\\d+(\\.\\d+)?$';

/**
 * errorMode 'ignore': transforms and custom checks have no JSON Schema of their own; what the document must still
 * state about them the schema declares with v.metadata, `wire` for a parameter's whole form on the wire (stops,
 * points, decimal text). Text parameters are a union of string and number (JSON numbers are read as their text) and
 * are documented as the text they are.
 */
const conversion: ConversionConfig = {
  target: 'draft-2020-12',
  errorMode: 'ignore',
  overrideRef: ({ referenceId }) => componentRef(referenceId).$ref,
  overrideSchema: ({ valibotSchema }) => (isTextOrNumber(valibotSchema) ? { type: 'string' } : undefined),
  overrideAction: ({ valibotAction, jsonSchema }) => {
    // The pattern checked the text before it became a number (and bounded it to a safe integer); the type says it now.
    const { pattern: _text, minimum: _safeMinimum, maximum: _safeMaximum, ...numeric } = jsonSchema;
    if (valibotAction.type === 'safe_integer') return { ...numeric, type: 'integer' };
    if (valibotAction.type === 'finite') return { ...numeric, type: 'number' };
    if (valibotAction.type === 'metadata' && 'wire' in (valibotAction as v.MetadataAction<unknown, { wire?: JsonSchema }>).metadata) {
      const { description } = jsonSchema;
      return { ...(valibotAction as v.MetadataAction<unknown, { wire: JsonSchema }>).metadata.wire, ...(description && { description }) };
    }
    return undefined;
  },
};

function isTextOrNumber(schema: v.GenericSchema): boolean {
  return (
    schema.type === 'union' &&
    (schema as v.UnionSchema<v.GenericSchema[], undefined>).options.every((option) => ['string', 'number'].includes(option.type))
  );
}

export const API_KEY_DESCRIPTION = [
  'The API key may come in the X-Api-Key header, in the body of a POST (a form field or a JSON property named api_key)',
  'or in the api_key query parameter, looked for in that order; the first one that is not empty is used, so an empty',
  'value never hides a key sent another way. Tools should use the header.',
].join(' ');

const API_DESCRIPTION = [
  'Every operation lives at /api/<operation>. Read operations are GET with query parameters; the others are POST',
  'with a form (application/x-www-form-urlencoded) or a JSON object body. Every answer is the envelope',
  '{"version":"1","result":"success"|"error","error_msg":""} plus the fields of the operation; an error carries only',
  'the envelope, with the HTTP status of its class.',
  API_KEY_DESCRIPTION,
  'As forms send everything as text, numeric parameters also take numeric text, and text parameters a JSON number.',
  'The examples are those of the demo `npm start` seeds into an empty .local/: run in order, each succeeds.',
  'Each API key has a token bucket (docs/operations.md, "Scaling"): every answer tells what is left in the RateLimit and',
  'RateLimit-Policy headers (IETF draft-ietf-httpapi-ratelimit-headers), and a 429 when to retry in Retry-After.',
].join(' ');

/** One tag per area of the registry, in the registry's order, with the page of docs/ that tells more. */
const AREA_DESCRIPTIONS: Record<Area, string> = {
  vehicles: 'Vehicles linked to the key, their live data, trips and live map (docs/vehicles.md, docs/live-map.md).',
  'expense types': "Fuel and the user's own expense types (docs/expense-types.md).",
  slips: 'Expense and fuel slips on vehicles (docs/expense-slips.md).',
  operators: 'Operators (drivers) and their identification tags (docs/operators.md).',
  locations: 'Saved points and polygons (geofences) that name places (docs/user-locations.md).',
  fuel: 'Detected fuel fills and their slips (docs/fuel-fills.md).',
  'job cards': 'Job card documents from external systems, with their history (docs/job-cards.md).',
  routes: 'Routes through ordered stops with driving distance and time (docs/routes.md).',
  positions: 'Positions the tracking devices reported (docs/positions-pipeline.md).',
  events: 'What happened to the vehicles, as a feed to poll without gaps or repeats (docs/events.md).',
  webhooks: 'Endpoints that receive your events as they happen, signed the Standard Webhooks way (docs/webhooks.md).',
  account: "The signed-in person's account and the user's GMT offset, for a signed-in person only (docs/console.md).",
  'api keys': "The user's API keys, managed by a signed-in person only: an API key cannot make or unlock keys (docs/console.md).",
  devices: 'Device tokens for phones and Traccar servers, made by a signed-in person only (docs/console.md, docs/devices.md).',
};

export interface OpenApiOptions {
  /** where the API is reached, e.g. the local server's origin */
  serverUrl?: string;
}

type Operation = OperationDeclaration;

export function openApiDocument(
  operations: readonly Operation[],
  { serverUrl = 'http://127.0.0.1:3000' }: OpenApiOptions = {},
): OpenApiDocument {
  const named: Record<string, v.GenericSchema> = { ...SHARED_RECORDS };
  for (const operation of operations) {
    if ('entries' in operation.output) {
      named[`${pascalCase(operation.name)}Response`] = v.object({ ...SuccessEnvelope.entries, ...operation.output.entries });
    }
  }
  const requestSchemas = Object.fromEntries(
    operations
      .filter((operation) => operation.method === 'POST')
      .map((operation) => [`${pascalCase(operation.name)}Input`, bodySchema(operation)]),
  );
  const areas = [...new Set(operations.map((operation) => operation.area))];
  const paths = Object.fromEntries(
    operations.map((operation) => [`/api/${operation.name}`, { [operation.method.toLowerCase()]: operationObject(operation) }]),
  );
  // Only the shared error responses some operation refers to (a 409 always has its operation's own message).
  const referenced = Object.values(ERROR_RESPONSES).filter(({ name }) =>
    JSON.stringify(paths).includes(`"#/components/responses/${name}"`),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Fleet Tracking API',
      version: API_VERSION,
      description: API_DESCRIPTION,
      // The package is private: no public licence, and no address beyond the team (the README's owners).
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      contact: { name: 'Fleet tracking service team' },
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKeyHeader: [] }, { apiKeyQuery: [] }, { personToken: [] }],
    tags: areas.map((area) => ({ name: area, description: AREA_DESCRIPTIONS[area] })),
    paths,
    webhooks: Object.fromEntries(Object.keys(DELIVERED_EVENTS).map((type) => [type, { post: webhookObject(type) }])),
    components: {
      schemas: { ...(toJsonSchemaDefs(named, conversion) as Record<string, JsonSchema>), ...requestSchemas },
      responses: Object.fromEntries(
        referenced.map(({ name, description, example }) => [name, errorResponse(description, example, name === ERROR_RESPONSES[429].name)]),
      ),
      headers: RATE_LIMIT_HEADERS,
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: API_KEY_DESCRIPTION },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: API_KEY_DESCRIPTION },
        personToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "A signed-in person's OIDC access token (the console's; docs/console.md), accepted wherever a key is and alone by " +
            'the api key and device token operations.',
        },
      },
    },
  };
}

// ---- Webhook deliveries (issue 36): what an endpoint receives, with the Standard Webhooks headers; docs/webhooks.md ----
/** The Standard Webhooks headers of a delivery of `example`, with examples of its own. */
const webhookHeaders = (example: { event_id: string; timestamp: string }): ParameterObject[] => [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: "The event's event_id, the same on every attempt of the event: de-duplicate on it.",
    schema: { type: 'string', pattern: '^evt_[0-9a-f]{32}$' },
    example: example.event_id,
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, unix seconds: refuse one more than five minutes from your clock.',
    schema: { type: 'string', pattern: '^\\d{1,12}$' },
    example: String(Math.floor(Date.parse(example.timestamp) / 1000) + 1),
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the base64 after `whsec_` of ' +
      "the webhook's secret; during a rotation's 24 h two, space-separated (the current secret's first). Accept the delivery " +
      'when one matches (compare in constant time); any Standard Webhooks library verifies it.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)?$' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

/** One delivery: a POST of the event object to the endpoint's URL, signed, answered by the endpoint. */
function webhookObject(type: string): WebhookObject {
  const name = eventSchemaName(type);
  const meaning = String(
    (toJsonSchema(DELIVERED_EVENTS[type] as v.GenericSchema, conversion) as { description?: string }).description ?? '',
  );
  const example = isEventType(type) ? exampleEvent(type) : exampleTestEvent;
  return {
    operationId: `receive${name}`,
    tags: ['webhooks'],
    summary: `${type} delivered to your endpoint`,
    description:
      `${meaning} POSTed to each enabled endpoint of yours whose event_types and vehicle_uids take it, as getEvents answers it ` +
      '(docs/events.md), signed the Standard Webhooks way (docs/webhooks.md, "Verifying a delivery").',
    parameters: webhookHeaders(example as { event_id: string; timestamp: string }),
    requestBody: {
      description: 'The event object, exactly as the feed answers it.',
      required: true,
      content: { 'application/json': { schema: componentRef(name), example } },
    },
    responses: {
      '2XX': { description: 'Delivered once the status arrives (the body is not read).' },
      '410': { description: 'Gone: the delivery failed and the endpoint is disabled (editWebhook enabled=1 turns it on again).' },
      default: {
        description:
          'Anything else, a 3xx (redirects are not followed), a timeout (10 s) or a connection error: retried on the schedule of ' +
          'docs/webhooks.md; a 429 or 503 with Retry-After waits that long.',
      },
    },
  };
}

// ---- Idempotency-Key (issue 15): every operation that declares it takes it; see docs/idempotency.md ----
const IDEMPOTENCY_KEY_PARAMETER: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    "Optional, 1 to 255 printable ASCII characters, scoped to the API key's user. The same key with the same request within 24 h " +
    'answers the first answer again and creates nothing; with a different request it answers 409 `Idempotency-Key already used ' +
    'with a different request`; while the first request still runs, 409 `a request with this Idempotency-Key is still in progress`.',
  // Any key of this form does: Postman's import fills in a random one, Prism checks it.
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY.source },
};

function operationObject(operation: Operation): OperationObject {
  const entries = parameterEntries(operation.input);
  const takesDocument = operation.jsonBody === 'payload';
  const { examples } = operation;
  // A document body leaves only the query string for the other parameters (job_card_uid of editJobCard).
  const queryEntries = operation.method === 'GET' ? entries : takesDocument ? entries.filter(([name]) => name !== 'payload') : [];
  const queryExamples: Readonly<Record<string, unknown>> | undefined = operation.method === 'GET' ? examples.request : examples.query;
  const inputName = `${pascalCase(operation.name)}Input`;
  return {
    operationId: operation.name,
    ...(operation.personOnly ? { security: [{ personToken: [] }] } : {}),
    tags: [operation.area],
    summary: operation.summary,
    description: operationDescription(operation),
    parameters: [
      ...queryEntries.map(([name, schema]) => ({
        name,
        in: 'query' as const,
        // With a form, editJobCard's job_card_uid may be a form field instead.
        required: isRequired(schema) && !takesDocument,
        description: parameterDescription(schema),
        // Also in the schema: tools that build requests from schemas (Postman's import) take it from there.
        schema: withExample(inputSchema(schema), queryExamples?.[name], isRequired(schema)),
        ...(queryExamples?.[name] !== undefined && { example: queryExamples[name] }),
      })),
      ...(operation.idempotencyKey ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ],
    ...(operation.method === 'POST' && {
      requestBody: {
        description: takesDocument
          ? 'The job card document as a raw JSON object, or a form whose payload field holds it as JSON text.'
          : `A form or a JSON object of the parameters: ` +
            `${entries.map(([name, schema]) => (isRequired(schema) ? `${name} (required)` : name)).join(', ')}. ${API_KEY_IN_BODY}`,
        required: true,
        content: {
          // Only job cards take a document as their body.
          'application/json': {
            schema: componentRef(takesDocument ? 'JobCardDocument' : inputName),
            example: examples.request,
          },
          'application/x-www-form-urlencoded': {
            schema: componentRef(inputName),
            example: takesDocument ? { payload: JSON.stringify(examples.request) } : formExample(examples.request),
          },
        },
      },
    }),
    responses: {
      200: successResponse(operation),
      ...Object.fromEntries(errorStatuses(operation, entries).map((status) => [status, statusResponse(operation, status)])),
    },
  };
}

const API_KEY_IN_BODY =
  'The body may also carry the API key as api_key (see the security schemes); tools should send the X-Api-Key header instead.';

/**
 * The example on the schema; for a required value also as its `default`, the one value Postman's converter reads
 * with its default options (docs/decisions.md: a required value's default states no server-side assumption).
 */
const withExample = (schema: JsonSchema, example: unknown, required: boolean): JsonSchema => {
  if (example === undefined) return schema;
  return { ...(required ? withDefault(schema, example) : schema), example } as JsonSchema;
};

/**
 * `default` on the schema and on each alternative of a number | text one, in that alternative's form: Postman's
 * converter resolves an anyOf to its first alternative and reads nothing from the anyOf itself.
 */
function withDefault(schema: JsonSchema, value: unknown): JsonSchema {
  const { anyOf } = schema as { anyOf?: JsonSchema[] };
  if (!anyOf) return { ...schema, default: value } as JsonSchema;
  const formOf = (alternative: JsonSchema): unknown => {
    const { type } = alternative as { type?: unknown };
    if (type === 'string') return typeof value === 'object' ? JSON.stringify(value) : String(value);
    if (type === 'number' || type === 'integer') return typeof value === 'string' ? Number(value) : value;
    // A form's example of an array is its JSON text.
    return typeof value === 'string' && (type === 'array' || type === 'object') ? JSON.parse(value) : value;
  };
  return { ...schema, anyOf: anyOf.map((alternative) => ({ ...alternative, default: formOf(alternative) })), default: value } as JsonSchema;
}

/** A form sends every value as text; arrays (stops, points) as their JSON text. */
function formExample(request: Readonly<Record<string, unknown>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request).map(([name, value]) => [name, typeof value === 'object' ? JSON.stringify(value) : String(value)]),
  );
}

function operationDescription(operation: Operation): string {
  const crossChecks = 'pipe' in operation.input ? operation.input.pipe.slice(1).flatMap(messagesOf) : [];
  const access = accessOf(operation) === 'read' ? 'Reads only.' : 'Changes data.';
  return [
    operation.description,
    `${operation.method} /api/${operation.name}. ${access}`,
    ...(crossChecks.length ? [`Also refused: ${crossChecks.join('; ')}.`] : []),
  ].join(' ');
}

type Entry = [string, v.GenericSchema];

function parameterEntries(input: InputSchema): Entry[] {
  return Object.entries('pipe' in input ? input.pipe[0].entries : input.entries) as Entry[];
}

/** Required when an absent value is refused (the chain passes every declared key, absent ones as undefined). */
const isRequired = (schema: v.GenericSchema): boolean => !v.safeParse(schema, undefined).success;

/** What a parameter means: its schema's own description (v.description); the OpenAPI test fails for one without. */
const parameterDescription = (schema: v.GenericSchema): string =>
  (toJsonSchema(schema, conversion).description as string | undefined) ?? '';

/**
 * A parameter's JSON Schema as the service reads it: numbers as a JSON number or its text, both with the schema's
 * bounds, 0/1 flags as either, text with its length. Everything comes from the schema's actions and metadata.
 */
export function inputSchema(schema: v.GenericSchema): JsonSchema {
  const { $schema: _dialect, description: _described, ...converted } = toJsonSchema(schema, conversion);
  if (converted.type === 'integer' || converted.type === 'number') {
    const { type, minimum, maximum, exclusiveMinimum, default: fallback, ...rest } = converted;
    // A number with both (radius: greater than 0 and within the storable range) keeps the tighter lower bound only.
    const exclusive = exclusiveMinimum !== undefined && (minimum === undefined || Number(exclusiveMinimum) >= Number(minimum));
    const bounds = {
      ...(minimum !== undefined && !exclusive && { minimum }),
      ...(maximum !== undefined && { maximum }),
      ...(exclusive && { exclusiveMinimum }),
    };
    const alternatives: JsonSchema = {
      ...rest,
      // Text first, as forms and query strings send it: Postman's converter fills a value from the first alternative.
      anyOf: [
        { type: 'string', pattern: textPattern(type, bounds) },
        { type, ...bounds },
      ],
    };
    return fallback === undefined ? alternatives : withDefault(alternatives, fallback);
  }
  if (Array.isArray(converted.enum) && converted.enum.join() === '0,1') return { enum: [0, 1, '0', '1'] };
  return converted;
}

/** The text form of a bounded number, with the same bounds (so `width=0` or `latitude=100` is refused as text too). */
function textPattern(
  type: unknown,
  { minimum, maximum, exclusiveMinimum }: { minimum?: unknown; maximum?: unknown; exclusiveMinimum?: unknown },
) {
  // Unbounded above: only a lower bound of 0 changes the text (no sign).
  if (typeof maximum !== 'number') return (type === 'integer' ? INTEGER_TEXT : DECIMAL_TEXT).replace('-?', minimum === 0 ? '' : '-?');
  const lowest = typeof minimum === 'number' ? minimum : undefined;
  if (type === 'integer') return integerTextUpTo(lowest ?? -maximum, maximum);
  return decimalTextUpTo(maximum, {
    negative: lowest === undefined ? exclusiveMinimum === undefined : lowest < 0,
    positive: exclusiveMinimum === 0,
  });
}

/** The string messages of a schema's pipe, for the cross-field checks an operation's input adds. */
function messagesOf(node: unknown): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const { message, pipe } = node as { message?: unknown; pipe?: unknown[] };
  return [...(typeof message === 'string' ? [message] : []), ...(pipe ?? []).flatMap(messagesOf)];
}

/**
 * A POST body: the parameters. The API key is no property of it (tools would fill it in and send it
 * beside the header); the security schemes and the body's description say it may come here too.
 */
function bodySchema(operation: Operation): JsonSchema {
  const entries = parameterEntries(operation.input);
  const { request, query } = operation.examples;
  // Valid as a form and as JSON: the form's text (and a document's JSON text in payload).
  const example: Record<string, unknown> =
    operation.jsonBody === 'payload' ? { ...query, payload: JSON.stringify(request) } : formExample(request);
  const properties = Object.fromEntries(
    entries.map(([name, schema]) => [
      name,
      withExample(
        { ...inputSchema(schema), description: parameterDescription(schema) },
        example[name],
        isRequired(schema) && operation.jsonBody !== 'payload',
      ),
    ]),
  );
  // A form carries the job card document in payload, so the form needs it (job_card_uid may be in the query string).
  const required =
    operation.jsonBody === 'payload' ? ['payload'] : entries.filter(([, schema]) => isRequired(schema)).map(([name]) => name);
  return { type: 'object', properties, required };
}

function successResponse(operation: Operation) {
  const { output } = operation;
  if ('mediaType' in output) {
    return {
      description: operation.summary,
      headers: rateLimitHeaderRefs(false),
      content: { [output.mediaType]: { schema: { type: 'string', format: 'binary', contentMediaType: output.mediaType } } },
    };
  }
  const example = operation.examples.response;
  return {
    description: operation.summary,
    headers: rateLimitHeaderRefs(false),
    content: {
      'application/json': {
        schema: componentRef(`${pascalCase(operation.name)}Response`),
        ...(example && { example: { version: API_VERSION, result: 'success', error_msg: '', ...example } }),
      },
    },
  };
}

function errorStatuses(operation: Operation, entries: Entry[]): ErrorStatus[] {
  const notFound = entries.some(([name]) => namesARecord(name)) || operation.notFound !== undefined;
  return [
    400,
    401,
    403,
    ...(notFound ? [404 as const] : []),
    405,
    ...(operation.conflicts?.length ? [409 as const] : []),
    ...(operation.method === 'POST' ? [413 as const] : []),
    ...(entries.some(([name]) => name === 'cursor') ? [422 as const] : []),
    429,
    500,
    ...(operation.provider ? [502 as const] : []),
    503,
  ];
}

/** The shared error response, or one with the operation's own message where it has one (all of its 409s told). */
function statusResponse(operation: Operation, status: ErrorStatus) {
  const { description } = ERROR_RESPONSES[status];
  const [conflict, ...otherConflicts] = operation.conflicts ?? [];
  if (status === 409 && conflict) {
    const others = otherConflicts.map((message) => ` Also: \`${message}\`.`).join('');
    return errorResponse(`${description}${others}`, conflict);
  }
  if (status === 404 && operation.notFound) return errorResponse(description, operation.notFound);
  const [badRequest, ...otherBadRequests] = operation.badRequests ?? [];
  if (status === 400 && badRequest) {
    const others = otherBadRequests.map((message) => ` Also: \`${message}\`.`).join('');
    return errorResponse(`${description}${others}`, badRequest);
  }
  return { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };
}

function errorResponse(description: string, example: string, throttled = false) {
  return {
    description,
    headers: rateLimitHeaderRefs(throttled),
    content: {
      'application/json': { schema: componentRef('ErrorEnvelope'), example: { version: API_VERSION, result: 'error', error_msg: example } },
    },
  };
}

// ---- The per-key rate limit's headers (issue 22): on every answer; Retry-After on a 429 ----
const RATE_LIMIT_HEADERS = {
  RateLimit: {
    description:
      "What is left of the API key's bucket (IETF draft-ietf-httpapi-ratelimit-headers): r requests may come at once now, " +
      'and in t seconds the bucket is full again. Absent when the request was refused before its key was read (no key, wrong method).',
    schema: { type: 'string', example: '"default";r=299;t=1' },
  },
  RateLimitPolicy: {
    description: 'The bucket: q requests at once, refilled over w seconds (q/w a second sustained).',
    schema: { type: 'string', example: '"default";q=300;w=2' },
  },
  RetryAfter: {
    description: 'On every 429: seconds until the API key may make its next request (rounded up).',
    schema: { type: 'integer', minimum: 1, example: 1 },
  },
};

const rateLimitHeaderRefs = (throttled: boolean) => ({
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
  ...(throttled && { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } }),
});
