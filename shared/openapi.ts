/**
 * The service's OpenAPI 3.1 document, made from the registry and each operation's contract (its valibot
 * input and output schemas in functions/<name>/contract.ts): there is no hand-kept copy of a schema. Descriptions and
 * examples are in openapi-examples.ts and openapi-parameters.ts. The local server serves it at
 * /api/openapi.json with a reference page at /api/docs (shared/api-docs.ts), `npm run openapi` writes it,
 * `npm run postman` turns it into a Postman collection, and the CDK stack serves it too and turns it into
 * API Gateway documentation parts.
 */
import { type ConversionConfig, type JsonSchema, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { API_VERSION, ErrorEnvelope, SuccessEnvelope } from './contracts/envelope.ts';
import { SlipRecord } from './contracts/expense-slips.ts';
import { ExpenseTypeRecord } from './contracts/expense-types.ts';
import { FuelFillRecord } from './contracts/fuel-fills.ts';
import { JobCardDocument, JobCardRecord, JobCardSnapshotRecord } from './contracts/job-cards.ts';
import type { InputSchema, OperationContract } from './contracts/operation.ts';
import { operationContracts } from './contracts/operations.ts';
import { OperatorRecord } from './contracts/operators.ts';
import { RouteRecord, RouteSummary } from './contracts/routes.ts';
import { TripRecord } from './contracts/trips.ts';
import { UserLocationRecord } from './contracts/user-locations.ts';
import { LiveRecord, VehicleRecord } from './contracts/vehicles.ts';
import { NO_POSITION } from './domain/live-map/live-map.ts';
import { EXPIRY_FIELDS } from './domain/operator.ts';
import { MAX_STOPS, MIN_STOPS } from './domain/route/rules.ts';
import { AnswerTooLarge, NotFound } from './errors.ts';
import { MAX_BODY_BYTES } from './middleware/parse-request.ts';
import { type OperationExamples, operationExamples } from './openapi-examples.ts';
import { parameterDescriptions } from './openapi-parameters.ts';
import { type Area, isCreate, type Operation, type OperationName, operations } from './operations.ts';

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
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
}

/** Records several operations answer: components of their own, referenced where they appear. */
const SHARED_RECORDS = {
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

/** Uniqueness rules, and edits that give up after a few rounds of other requests changing the record; with a typical message. */
const CONFLICTS: Partial<Record<OperationName, string>> = {
  addExpenseType: 'expense type already exists',
  editExpenseType: 'expense type already exists',
  addOperator: 'tag_id already exists',
  editOperator: 'tag_id already exists',
  deleteOperator: 'operator is being changed by another request, try again',
  deleteExpenseType: 'expense type is being changed by another request, try again',
  editExpenseSlip: 'slip is being changed by another request, try again',
  deleteExpenseSlip: 'slip is being changed by another request, try again',
  editUserLocation: 'location is being changed by another request, try again',
  deleteRoute: 'route is being changed by another request, try again',
  addFuelFillSlip: 'a slip already exists for this fill: use editExpenseSlip or deleteExpenseSlip with slip_uid 42',
  editJobCard: 'job card is being changed by another request, try again',
};

/** 404s not owed to an id parameter. */
const NOT_FOUND_WITHOUT_ID: Partial<Record<OperationName, string>> = { getLiveMap: NO_POSITION };

/** Parameters that name one of the user's records (type: an expense type). */
const namesARecord = (parameter: string): boolean => parameter.endsWith('_uid') || parameter === 'type';

const componentRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const pascalCase = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

/** Text the service reads as a number: what forms send, and what JSON clients may send instead of a number. */
const INTEGER_TEXT = '^-?\\d{1,16}$';
const DECIMAL_TEXT = '^-?\\d+(\\.\\d+)?$';
const DATE_TEXT = '^\\d{4}-\\d{2}-\\d{2}$';
const DATE_TIME_TEXT = '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}:\\d{2})?$';

const coordinateSchema = (range: number): JsonSchema => ({
  anyOf: [
    { type: 'number', minimum: -range, maximum: range },
    { type: 'string', pattern: DECIMAL_TEXT },
  ],
});

const integerOrText: JsonSchema = { anyOf: [{ type: 'integer' }, { type: 'string', pattern: INTEGER_TEXT }] };

/** JSON text of an array, as a form sends it (and as a location record reads its points back). */
const jsonText = (of: string): JsonSchema => ({ type: 'string', contentMediaType: 'application/json', description: `${of} as JSON text` });

const STOPS_SCHEMA: JsonSchema = {
  anyOf: [
    {
      type: 'array',
      minItems: MIN_STOPS,
      maxItems: MAX_STOPS,
      items: {
        anyOf: [
          { type: 'object', title: 'Saved location', properties: { user_location_uid: integerOrText }, required: ['user_location_uid'] },
          {
            type: 'object',
            title: 'Point',
            properties: {
              lat: coordinateSchema(90),
              lng: coordinateSchema(180),
              description: { type: ['string', 'null'], maxLength: 255 },
            },
            required: ['lat', 'lng'],
          },
        ],
      },
    },
    jsonText('the same array'),
  ],
};

const POINTS_SCHEMA: JsonSchema = {
  anyOf: [
    {
      type: 'array',
      minItems: 3,
      maxItems: 1000,
      items: {
        type: 'object',
        properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lng: { type: 'number', minimum: -180, maximum: 180 } },
        required: ['lat', 'lng'],
      },
    },
    jsonText('the same array'),
  ],
};

/** A day, or the same day at midnight as the operator record reads it back. */
const EXPIRY_SCHEMA: JsonSchema = {
  anyOf: [
    { type: 'string', format: 'date', pattern: DATE_TEXT },
    { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2} 00:00:00$' },
  ],
};

/**
 * Parameters whose rules live in code rather than in valibot actions: their schema is written here, next to
 * what the code checks. Keyed by name: a parameter of that name means the same wherever it appears.
 */
const WRITTEN_SCHEMAS: Record<string, JsonSchema> = {
  stops: STOPS_SCHEMA,
  points: POINTS_SCHEMA,
  ...Object.fromEntries(EXPIRY_FIELDS.map((name) => [name, EXPIRY_SCHEMA])),
};

/**
 * errorMode 'ignore': transforms and custom checks have no JSON Schema of their own; the checks the
 * document must still state (dates, datetimes) are recognised by their requirement. Text parameters are a
 * union of string and number (JSON numbers are read as their text) and are documented as the text they are.
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
    if (valibotAction.type !== 'check' || !('requirement' in valibotAction)) return undefined;
    const takes = checkedTexts(valibotAction.requirement as (input: string) => boolean);
    if (takes === 'day') return { ...jsonSchema, format: 'date', pattern: DATE_TEXT };
    if (takes === 'day or datetime') return { ...jsonSchema, pattern: DATE_TIME_TEXT };
    if (takes === 'day or nothing') return { anyOf: [{ type: 'string', format: 'date', pattern: DATE_TEXT }, { const: '' }] };
    return undefined;
  },
};

/**
 * What a check on text takes, told by asking it (operations wrap the same rule in functions of their own, so it
 * is recognised by what it does): a real calendar day, a day or a datetime, a day or nothing, or something else.
 */
function checkedTexts(requirement: (input: string) => boolean): 'day' | 'day or datetime' | 'day or nothing' | undefined {
  const PROBES = ['2026-02-28', '2026-02-29', '2026-02-28 23:59:59', '2026-02-28 24:00:00', '', 'x'];
  const answers = PROBES.map((probe) => {
    try {
      return requirement(probe) === true;
    } catch {
      return false;
    }
  }).join();
  if (answers === 'true,false,false,false,false,false') return 'day';
  if (answers === 'true,false,true,false,false,false') return 'day or datetime';
  if (answers === 'true,false,false,false,true,false') return 'day or nothing';
  return undefined;
}

function isTextOrNumber(schema: v.GenericSchema): boolean {
  return (
    schema.type === 'union' &&
    (schema as v.UnionSchema<v.GenericSchema[], undefined>).options.every((option) => ['string', 'number'].includes(option.type))
  );
}

/** Imported statically (shared/contracts/operations.ts), so CDK constructs, which cannot await, build from the same document. */
const contractOf = (operation: Operation): OperationContract => operationContracts[operation.name as OperationName];

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
};

export interface OpenApiOptions {
  /** where the API is reached, e.g. the local server's origin */
  serverUrl?: string;
}

export function openApiDocument({ serverUrl = 'http://127.0.0.1:3000' }: OpenApiOptions = {}): OpenApiDocument {
  const described = operations.map((operation) => ({ operation: operation as Operation, contract: contractOf(operation) }));
  const named: Record<string, v.GenericSchema> = { ...SHARED_RECORDS };
  for (const { operation, contract } of described) {
    if ('entries' in contract.output) {
      named[`${pascalCase(operation.name)}Response`] = v.object({ ...SuccessEnvelope.entries, ...contract.output.entries });
    }
  }
  const requestSchemas = Object.fromEntries(
    described
      .filter(({ operation }) => operation.method === 'POST')
      .map(({ operation, contract }) => [`${pascalCase(operation.name)}Input`, bodySchema(operation, contract)]),
  );
  const areas = [...new Set(described.map(({ operation }) => operation.area))];
  const paths = Object.fromEntries(
    described.map(({ operation, contract }) => [
      `/api/${operation.name}`,
      { [operation.method.toLowerCase()]: operationObject(operation, contract) },
    ]),
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
    security: [{ apiKeyHeader: [] }, { apiKeyQuery: [] }],
    tags: areas.map((area) => ({ name: area, description: AREA_DESCRIPTIONS[area] })),
    paths,
    components: {
      schemas: { ...(toJsonSchemaDefs(named, conversion) as Record<string, JsonSchema>), ...requestSchemas },
      responses: Object.fromEntries(
        referenced.map(({ name, description, example }) => [name, errorResponse(description, example, name === ERROR_RESPONSES[429].name)]),
      ),
      headers: RATE_LIMIT_HEADERS,
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: API_KEY_DESCRIPTION },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: API_KEY_DESCRIPTION },
      },
    },
  };
}

// ---- Idempotency-Key (issue 15): every create takes it; see docs/idempotency.md ----
const IDEMPOTENCY_KEY_PARAMETER: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    "Optional, 1 to 255 printable ASCII characters, scoped to the API key's user. The same key with the same request within 24 h " +
    'answers the first answer again and creates nothing; with a different request it answers 409 `Idempotency-Key already used ' +
    'with a different request`; while the first request still runs, 409 `a request with this Idempotency-Key is still in progress`.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/** The operation's examples; an operation without them is documented without, and the OpenAPI test fails. */
const examplesOf = (operation: Operation): Partial<OperationExamples> => operationExamples[operation.name as OperationName] ?? {};

function operationObject(operation: Operation, contract: OperationContract): OperationObject {
  const entries = parameterEntries(contract.input);
  const takesDocument = contract.jsonBody === 'payload';
  const examples = examplesOf(operation);
  // A document body leaves only the query string for the other parameters (job_card_uid of editJobCard).
  const queryEntries = operation.method === 'GET' ? entries : takesDocument ? entries.filter(([name]) => name !== 'payload') : [];
  const queryExamples = operation.method === 'GET' ? examples.request : examples.query;
  const inputName = `${pascalCase(operation.name)}Input`;
  return {
    operationId: operation.name,
    tags: [operation.area],
    summary: operation.summary,
    description: operationDescription(operation, contract.input),
    parameters: [
      ...queryEntries.map(([name, schema]) => ({
        name,
        in: 'query' as const,
        // With a form, editJobCard's job_card_uid may be a form field instead.
        required: isRequired(schema) && !takesDocument,
        description: parameterDescription(operation, name),
        // Also in the schema: tools that build requests from schemas (Postman's import) take it from there.
        schema: withExample(inputSchema(name, schema), queryExamples?.[name]),
        ...(queryExamples?.[name] !== undefined && { example: queryExamples[name] }),
      })),
      ...(isCreate(operation.name) ? [IDEMPOTENCY_KEY_PARAMETER] : []),
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
            ...(examples.request && { example: examples.request }),
          },
          'application/x-www-form-urlencoded': {
            schema: componentRef(inputName),
            ...(examples.request && {
              example: takesDocument ? { payload: JSON.stringify(examples.request) } : formExample(examples.request),
            }),
          },
        },
      },
    }),
    responses: {
      200: successResponse(operation, contract),
      ...Object.fromEntries(errorStatuses(operation, entries).map((status) => [status, statusResponse(operation, status)])),
    },
  };
}

const API_KEY_IN_BODY =
  'The body may also carry the API key as api_key (see the security schemes); tools should send the X-Api-Key header instead.';

const withExample = (schema: JsonSchema, example: unknown): JsonSchema =>
  example === undefined ? schema : ({ ...schema, example } as JsonSchema);

/** A form sends every value as text; arrays (stops, points) as their JSON text. */
function formExample(request: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request).map(([name, value]) => [name, typeof value === 'object' ? JSON.stringify(value) : String(value)]),
  );
}

function operationDescription(operation: Operation, input: InputSchema): string {
  const crossChecks = 'pipe' in input ? input.pipe.slice(1).flatMap(messagesOf) : [];
  const access = operation.access === 'read' ? 'Reads only.' : 'Changes data.';
  return [
    ...(examplesOf(operation).description ? [examplesOf(operation).description] : []),
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

export const parameterDescription = (operation: Operation, name: string): string =>
  parameterDescriptions[`${operation.name}.${name}`] ?? parameterDescriptions[name] ?? '';

/**
 * A parameter's JSON Schema as the service reads it: numbers as a JSON number or its text, 0/1 flags as
 * either, decimals with their limits, text with its length. The limits come from the schema's own checks,
 * which state them in their messages.
 */
export function inputSchema(name: string, schema: v.GenericSchema): JsonSchema {
  const written = WRITTEN_SCHEMAS[name];
  if (written) return written;
  const { $schema: _dialect, description: _stated, ...converted } = toJsonSchema(schema, conversion);
  const messages = messagesOf(schema);
  const limit = (pattern: RegExp): number | undefined => {
    const found = messages.map((message) => pattern.exec(message)?.[1]).find(Boolean);
    return found === undefined ? undefined : Number(found);
  };
  const maxLength = limit(/too long \(max (\d+) chars\)/);
  if (converted.type === 'integer' || converted.type === 'number') {
    const { type, minimum, maximum, exclusiveMinimum, default: fallback, ...rest } = converted;
    // A number with both (radius: greater than 0 and within the storable range) keeps the tighter lower bound only.
    const exclusive = exclusiveMinimum !== undefined && (minimum === undefined || Number(exclusiveMinimum) >= Number(minimum));
    const bounds = {
      ...(minimum !== undefined && !exclusive && { minimum }),
      ...(maximum !== undefined && { maximum }),
      ...(exclusive && { exclusiveMinimum }),
    };
    return {
      ...rest,
      anyOf: [
        { type, ...bounds },
        { type: 'string', pattern: type === 'integer' ? INTEGER_TEXT : DECIMAL_TEXT },
      ],
      ...(fallback !== undefined && { default: fallback }),
    };
  }
  if (Array.isArray(converted.enum) && converted.enum.join() === '0,1') return { enum: [0, 1, '0', '1'] };
  const decimals = limit(/may have at most (\d+) decimals/);
  if (decimals !== undefined) {
    const whole = limit(/at most (\d+) digits before the decimal point/) ?? 12;
    const positive = messages.some((message) => message.includes('greater than 0'));
    const { pattern: _loose, type: _text, default: fallback, ...rest } = converted;
    return {
      ...rest,
      anyOf: [
        { type: 'number', ...(positive ? { exclusiveMinimum: 0 } : { minimum: 0 }), maximum: 10 ** whole - 10 ** -decimals },
        { type: 'string', pattern: `^${positive ? '(?=.*[1-9])' : ''}0*\\d{1,${whole}}(\\.\\d{1,${decimals}})?$` },
      ],
      ...(fallback !== undefined && { default: fallback }),
    };
  }
  return { ...converted, ...(maxLength !== undefined && converted.type === 'string' && { maxLength }) };
}

/** The string messages of a schema, its pipe, what it wraps and its options, in order. */
function messagesOf(node: unknown): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const { message, pipe, wrapped, options } = node as { message?: unknown; pipe?: unknown[]; wrapped?: unknown; options?: unknown[] };
  return [
    ...(typeof message === 'string' ? [message] : []),
    ...(pipe ?? []).flatMap(messagesOf),
    ...messagesOf(wrapped),
    ...(Array.isArray(options) ? options.flatMap(messagesOf) : []),
  ];
}

/**
 * A POST body: the parameters. The API key is no property of it (tools would fill it in and send it
 * beside the header); the security schemes and the body's description say it may come here too.
 */
function bodySchema(operation: Operation, contract: OperationContract): JsonSchema {
  const entries = parameterEntries(contract.input);
  const { request, query } = examplesOf(operation);
  // Valid as a form and as JSON: the form's text (and a document's JSON text in payload).
  const example =
    contract.jsonBody === 'payload' ? { ...query, ...(request && { payload: JSON.stringify(request) }) } : formExample(request ?? {});
  const properties = Object.fromEntries(
    entries.map(([name, schema]) => [
      name,
      withExample({ ...inputSchema(name, schema), description: parameterDescription(operation, name) }, example[name]),
    ]),
  );
  // A form carries the job card document in payload, so the form needs it (job_card_uid may be in the query string).
  const required = contract.jsonBody === 'payload' ? ['payload'] : entries.filter(([, schema]) => isRequired(schema)).map(([name]) => name);
  return { type: 'object', properties, required };
}

function successResponse(operation: Operation, { output }: OperationContract) {
  if ('mediaType' in output) {
    return {
      description: operation.summary,
      headers: rateLimitHeaderRefs(false),
      content: { [output.mediaType]: { schema: { type: 'string', format: 'binary', contentMediaType: output.mediaType } } },
    };
  }
  const example = examplesOf(operation).response;
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
  const notFound = entries.some(([name]) => namesARecord(name)) || NOT_FOUND_WITHOUT_ID[operation.name as OperationName] !== undefined;
  return [
    400,
    401,
    403,
    ...(notFound ? [404 as const] : []),
    405,
    ...(CONFLICTS[operation.name as OperationName] ? [409 as const] : []),
    ...(operation.method === 'POST' ? [413 as const] : []),
    ...(entries.some(([name]) => name === 'cursor') ? [422 as const] : []),
    429,
    500,
    ...(operation.provider ? [502 as const] : []),
    503,
  ];
}

/** The shared error response, or one with the operation's own message where it has one. */
function statusResponse(operation: Operation, status: ErrorStatus) {
  const name = operation.name as OperationName;
  const message = status === 409 ? CONFLICTS[name] : status === 404 ? NOT_FOUND_WITHOUT_ID[name] : undefined;
  if (message) return errorResponse(ERROR_RESPONSES[status].description, message);
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
