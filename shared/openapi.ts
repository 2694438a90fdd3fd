/**
 * The service's OpenAPI 3.1 document, made from the registry and each handler's contract (its valibot
 * input and output schemas, see operation(...)): there is no hand-kept copy. The local server serves it
 * at /api/openapi.json, `npm run openapi` writes it and the CDK stack turns it into API Gateway
 * documentation parts.
 */
import { createRequire } from 'node:module';
import { type ConversionConfig, type JsonSchema, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { ExpenseTypeRecord } from './domain/expense-type.ts';
import { SlipRecord } from './domain/expense-slip.ts';
import { FuelFillRecord } from './domain/fuel-fill.ts';
import { JobCardDocument, JobCardReceipt, JobCardRecord, JobCardSnapshotRecord } from './domain/job-card.ts';
import { NO_POSITION } from './domain/live-map/live-map.ts';
import { OperatorRecord } from './domain/operator.ts';
import { RouteRecord, RouteSummary } from './domain/route.ts';
import { TripRecord } from './domain/trip.ts';
import { UserLocationRecord } from './domain/user-location.ts';
import { LiveRecord, VehicleRecord } from './domain/vehicle.ts';
import { API_VERSION } from './middleware/envelope.ts';
import { MAX_BODY_BYTES } from './middleware/parse-request.ts';
import type { InputSchema } from './middleware/validate-input.ts';
import type { OperationContract } from './operation.ts';
import { handlerPath, isCreate, type Operation, type OperationName, operations } from './operations.ts';
import { ErrorEnvelope, SuccessEnvelope } from './responses.ts';
import { isCalendarDate } from './validation.ts';

export interface ParameterObject {
  name: string;
  in: 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description: string;
  parameters: ParameterObject[];
  requestBody?: { description: string; required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema>; responses: Record<string, unknown>; securitySchemes: Record<string, unknown> };
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
  JobCardReceipt,
  JobCardSnapshotRecord,
  RouteRecord,
  RouteSummary,
  ErrorEnvelope,
};

const ERROR_RESPONSES = {
  400: { name: 'BadRequest', description: 'A parameter is missing or invalid; error_msg names the first one, in parameter order.', example: 'vehicle_uid is required and must be an integer' },
  401: { name: 'Unauthorized', description: 'No API key, or one nobody has.', example: 'api key missing' },
  403: { name: 'Forbidden', description: 'The API key is locked.', example: 'api key locked' },
  404: { name: 'NotFound', description: 'A record the request names does not exist or belongs to another user.', example: 'vehicle not found or not linked to this api key' },
  405: { name: 'MethodNotAllowed', description: 'The resource answers every method, a wrong one with this.', example: 'method not allowed, use POST' },
  409: { name: 'Conflict', description: 'A uniqueness rule, or a concurrent change to the same record (try again).', example: 'tag_id already exists' },
  413: { name: 'PayloadTooLarge', description: 'The body is over the limit.', example: `request body too large (max ${MAX_BODY_BYTES / 1024} KB)` },
  429: { name: 'Throttled', description: 'Throttled by AWS; retry after a pause.', example: 'request throttled, retry later' },
  500: { name: 'InternalError', description: 'Anything unexpected; details only in the service log, with the request id.', example: 'internal error' },
  502: { name: 'ProviderFailed', description: 'The third-party map or directions provider failed or did not answer in time.', example: 'directions provider osrm could not be reached' },
} as const;

type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** Uniqueness rules, and edits that give up after a few rounds of other requests changing the record; with a typical message. */
const CONFLICTS: Partial<Record<OperationName, string>> = {
  addExpenseType: 'expense type already exists',
  editExpenseType: 'expense type already exists',
  addOperator: 'tag_id already exists',
  editOperator: 'tag_id already exists',
  deleteOperator: 'operator is being changed by another request, try again',
  addFuelFillSlip: 'a slip already exists for this fill: use editExpenseSlip or deleteExpenseSlip with slip_uid 42',
  editJobCard: 'job card is being changed by another request, try again',
};

/** 404s not owed to an id parameter. */
const NOT_FOUND_WITHOUT_ID: Partial<Record<OperationName, string>> = { getLiveMap: NO_POSITION };

/** Parameters that name one of the user's records (type: an expense type). */
const namesARecord = (parameter: string): boolean => parameter.endsWith('_uid') || parameter === 'type';

const componentRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const pascalCase = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * errorMode 'ignore': transforms and custom checks have no JSON Schema; their messages become the
 * parameters' descriptions instead. Text parameters are a union of string and number (JSON numbers
 * are read as their text) and are documented as the text they are.
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
    if (valibotAction.type === 'check' && 'requirement' in valibotAction && valibotAction.requirement === isCalendarDate) {
      return { ...jsonSchema, format: 'date' };
    }
    return undefined;
  },
};

function isTextOrNumber(schema: v.GenericSchema): boolean {
  return schema.type === 'union' && (schema as v.UnionSchema<v.GenericSchema[], undefined>).options.every((option) => ['string', 'number'].includes(option.type));
}

const requireModule = createRequire(import.meta.url);

/**
 * The handler modules declare the contracts; require() loads them synchronously (Node's require of ES
 * modules) so CDK constructs, which cannot await, build from the same document.
 */
function contractOf(operation: Operation): OperationContract {
  const module = requireModule(`../${handlerPath(operation.name)}`) as { handler?: { contract?: OperationContract } };
  const contract = module.handler?.contract;
  if (!contract?.output) throw new Error(`${handlerPath(operation.name)}: operation(...) declares no output`);
  return contract;
}

const API_DESCRIPTION = [
  'Every operation lives at /api/<operation>. Read operations are GET with query parameters; the others are POST',
  'with a form (application/x-www-form-urlencoded) or a JSON object body. Every answer is the envelope',
  '{"version":"1","result":"success"|"error","error_msg":""} plus the fields of the operation; an error carries only',
  'the envelope, with the HTTP status of its class. The API key goes in the X-Api-Key header or the api_key parameter.',
  'As forms send everything as text, numeric parameters also take numeric text, and text parameters a JSON number.',
].join(' ');

export interface OpenApiOptions {
  /** where the API is reached, e.g. the local server's origin */
  serverUrl?: string;
}

export function openApiDocument({ serverUrl = 'http://127.0.0.1:3000' }: OpenApiOptions = {}): OpenApiDocument {
  const described = operations.map((operation) => ({ operation, contract: contractOf(operation) }));
  const named: Record<string, v.GenericSchema> = { ...SHARED_RECORDS };
  for (const { operation, contract } of described) {
    if (contract.output && 'entries' in contract.output) {
      named[`${pascalCase(operation.name)}Response`] = v.object({ ...SuccessEnvelope.entries, ...contract.output.entries });
    }
  }
  const requestSchemas = Object.fromEntries(
    described.filter(({ operation }) => operation.method === 'POST').map(({ operation, contract }) => [`${pascalCase(operation.name)}Input`, bodySchema(contract.input)]),
  );
  return {
    openapi: '3.1.0',
    info: { title: 'Fleet Tracking API', version: API_VERSION, description: API_DESCRIPTION },
    servers: [{ url: serverUrl }],
    security: [{ apiKeyHeader: [] }, { apiKeyQuery: [] }],
    paths: Object.fromEntries(
      described.map(({ operation, contract }) => [`/api/${operation.name}`, { [operation.method.toLowerCase()]: operationObject(operation, contract) }]),
    ),
    components: {
      schemas: { ...(toJsonSchemaDefs(named, conversion) as Record<string, JsonSchema>), ...requestSchemas },
      responses: Object.fromEntries(Object.values(ERROR_RESPONSES).map(({ name, description, example }) => [name, errorResponse(description, example)])),
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'Wins over api_key when both are sent.' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'POST operations also take api_key in a form or JSON body.' },
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
    'Optional, 1 to 255 printable ASCII characters, scoped to the API key\'s user. The same key with the same request within 24 h ' +
    'answers the first answer again and creates nothing; with a different request it answers 409 `Idempotency-Key already used ' +
    'with a different request`; while the first request still runs, 409 `a request with this Idempotency-Key is still in progress`.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

function operationObject(operation: Operation, contract: OperationContract): OperationObject {
  const entries = parameterEntries(contract.input);
  const takesDocument = contract.jsonBody === 'payload';
  // A document body leaves only the query string for the other parameters (job_card_uid of editJobCard).
  const queryEntries = operation.method === 'GET' ? entries : takesDocument ? entries.filter(([name]) => name !== 'payload') : [];
  const inputName = `${pascalCase(operation.name)}Input`;
  return {
    operationId: operation.name,
    summary: operation.summary,
    description: operationDescription(operation, contract.input),
    parameters: [
      ...queryEntries.map(([name, schema]) => ({ name, in: 'query' as const, required: isRequired(schema), ...parameterSchema(schema) })),
      ...(isCreate(operation.name) ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ],
    ...(operation.method === 'POST' && {
      requestBody: {
        description: takesDocument
          ? 'The job card document as a raw JSON object, or a form whose payload field holds it as JSON text.'
          : `A form or a JSON object of the parameters: ${entries.map(([name, schema]) => (isRequired(schema) ? `${name} (required)` : name)).join(', ')}.`,
        required: true,
        content: {
          // Only job cards take a document as their body.
          'application/json': { schema: componentRef(takesDocument ? 'JobCardDocument' : inputName) },
          'application/x-www-form-urlencoded': { schema: componentRef(inputName) },
        },
      },
    }),
    responses: {
      200: successResponse(operation, contract),
      ...Object.fromEntries(errorStatuses(operation, entries).map((status) => [status, statusResponse(operation, status)])),
    },
  };
}

function operationDescription(operation: Operation, input: InputSchema): string {
  const crossChecks = 'pipe' in input ? input.pipe.slice(1).flatMap(messagesOf) : [];
  const access = operation.access === 'read' ? 'Reads only.' : 'Changes data.';
  return [`${operation.method} /api/${operation.name}. ${access}`, ...(crossChecks.length ? [`Also refused: ${crossChecks.join('; ')}.`] : [])].join(' ');
}

type Entry = [string, v.GenericSchema];

function parameterEntries(input: InputSchema): Entry[] {
  return Object.entries('pipe' in input ? input.pipe[0].entries : input.entries) as Entry[];
}

/** Required when an absent value is refused (the chain passes every declared key, absent ones as undefined). */
const isRequired = (schema: v.GenericSchema): boolean => !v.safeParse(schema, undefined).success;

/** The parameter's JSON Schema, described by its valibot messages: the rules in the words the service answers with. */
function parameterSchema(schema: v.GenericSchema): { description?: string; schema: JsonSchema } {
  const { $schema: _dialect, description: stated, ...converted } = toJsonSchema(schema, conversion);
  const description = [...(stated ? [stated] : []), ...new Set(messagesOf(schema))].join('; ');
  return { ...(description && { description }), schema: converted };
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

/** A POST body: the parameters, plus api_key for clients that send the key in the body. */
function bodySchema(input: InputSchema): JsonSchema {
  const entries = parameterEntries(input);
  const properties = Object.fromEntries(
    entries.map(([name, schema]) => {
      const { description, schema: converted } = parameterSchema(schema);
      return [name, { ...converted, ...(description && { description }) }];
    }),
  );
  return {
    type: 'object',
    properties: { ...properties, api_key: { type: 'string', description: 'the API key, when it is not in the X-Api-Key header or the query string' } },
    required: entries.filter(([, schema]) => isRequired(schema)).map(([name]) => name),
  };
}

function successResponse(operation: Operation, { output }: OperationContract) {
  if (output && 'mediaType' in output) {
    return { description: operation.summary, content: { [output.mediaType]: { schema: { type: 'string', contentMediaType: output.mediaType } } } };
  }
  return { description: operation.summary, content: { 'application/json': { schema: componentRef(`${pascalCase(operation.name)}Response`) } } };
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
    429,
    500,
    ...(operation.provider ? [502 as const] : []),
  ];
}

/** The shared error response, or one with the operation's own message where it has one. */
function statusResponse(operation: Operation, status: ErrorStatus) {
  const name = operation.name as OperationName;
  const message = status === 409 ? CONFLICTS[name] : status === 404 ? NOT_FOUND_WITHOUT_ID[name] : undefined;
  if (message) return errorResponse(ERROR_RESPONSES[status].description, message);
  return { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };
}

function errorResponse(description: string, example: string) {
  return {
    description,
    content: { 'application/json': { schema: componentRef('ErrorEnvelope'), example: { version: API_VERSION, result: 'error', error_msg: example } } },
  };
}
