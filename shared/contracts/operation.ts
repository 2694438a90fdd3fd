/**
 * What an operation declares about itself: its HTTP method, area, summary and description, whether it takes an
 * Idempotency-Key, its requests and answers, and examples of both. Each operation keeps its declaration in
 * functions/<name>/contract.ts, a module without side effects that its handler imports (and nothing else of
 * another operation); functions/registry.ts collects them for the stack, the local server, the scripts and the
 * OpenAPI document.
 */
import type * as v from 'valibot';

export type HttpMethod = 'GET' | 'POST';
export type Access = 'read' | 'write';
/** The area an operation belongs to: its tag in the OpenAPI document (a folder in Postman, a class in generated clients). */
export type Area =
  | 'vehicles'
  | 'expense types'
  | 'slips'
  | 'operators'
  | 'locations'
  | 'fuel'
  | 'job cards'
  | 'routes'
  | 'positions'
  | 'events'
  | 'webhooks'
  | 'account'
  | 'api keys'
  | 'devices';

type ParameterObject = v.ObjectSchema<v.ObjectEntries, undefined>;
/** An object of parameters, optionally piped into cross-field checks (e.g. start_date ≤ end_date). */
export type InputSchema =
  | ParameterObject
  // biome-ignore lint/suspicious/noExplicitAny: a pipe's items are typed by what flows through them, which differs per operation
  | v.SchemaWithPipe<readonly [ParameterObject, ...v.PipeItem<any, any, v.BaseIssue<unknown>>[]]>;

/** The parameters an input schema declares, in the spec's order (the validate middleware passes each one). */
export const parameterNamesOf = (schema: InputSchema): string[] => Object.keys('pipe' in schema ? schema.pipe[0].entries : schema.entries);

/** The fields a success adds to the envelope. */
export type OutputSchema = v.ObjectSchema<v.ObjectEntries, undefined>;
/** A success that is not JSON (getLiveMap's PNG). */
export interface BinaryOutput {
  readonly mediaType: string;
}

/**
 * 'params': a JSON body is an object of parameters (most operations).
 * 'payload': the body is a document the handler reads itself (job cards), so bad JSON is its call.
 */
export type JsonBody = 'params' | 'payload';

/** What the middleware chain needs of an operation's requests and answers. */
export interface OperationContract {
  readonly input: InputSchema;
  /** what a success answers: types the handler and makes the OpenAPI document; answers are not validated at run time */
  readonly output: OutputSchema | BinaryOutput;
  readonly jsonBody?: JsonBody;
}

/** Example requests and answers: the seeded demo's (`npm start` on an empty .local/), each succeeding when run in the registry's order. */
export interface OperationExamples {
  /** the parameters: the query string of a GET, the body of a POST (for job cards, the document itself) */
  readonly request: Readonly<Record<string, unknown>>;
  /** parameters that go in the query string of a POST whose body is a document (editJobCard's job_card_uid) */
  readonly query?: Readonly<Record<string, unknown>>;
  /** the fields a success adds to the envelope; absent for an answer that is not JSON (getLiveMap's PNG) */
  readonly response?: Readonly<Record<string, unknown>>;
}

/** A DynamoDB item action, as IAM names it (a transaction's Put, Update, Delete and ConditionCheck are checked as these). */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem'
  | 'BatchWriteItem';

/** What a GET may call: it never writes. */
export const READ_TABLE_ACTIONS: readonly TableAction[] = ['GetItem', 'BatchGetItem', 'Query'];

/**
 * What detection calls (shared/pipeline/track-vehicle.ts and what it reads): the grant of the positions pipeline and of
 * the quiet-vehicles check, which both run it. It never batch-writes or condition-checks.
 */
export const DETECTION_TABLE_ACTIONS: readonly TableAction[] = [...READ_TABLE_ACTIONS, 'PutItem', 'UpdateItem', 'DeleteItem'];

export interface OperationDeclaration extends OperationContract {
  /** the operation's name: its path /api/<name>, its folder functions/<name>/ and its function */
  readonly name: string;
  /** GET reads, POST changes data: the access the function gets in AWS follows from it (accessOf) */
  readonly method: HttpMethod;
  readonly area: Area;
  /** one line, for the README table and the document's summary */
  readonly summary: string;
  /** what the operation does, for integrators */
  readonly description: string;
  /** true: a retry with the same Idempotency-Key answers the first answer and creates nothing twice (docs/idempotency.md) */
  readonly idempotencyKey?: true;
  /**
   * Answer fields holding a secret that is shown once (a webhook's signing secret). An Idempotency-Key's stored answer
   * keeps only their SHA-256, and a replay answers a secret only while it is still live (the operation's liveSecrets
   * reads it back), else null (docs/idempotency.md, "Secrets").
   */
  readonly secretFields?: readonly string[];
  /**
   * The DynamoDB actions the handler's own code calls, on any path, granted exactly on the table and its indexes; the
   * chain's are granted apart (the key lookup's GetItem, the rate bucket's and the idempotency record's actions, on
   * their own items: infra/api/operation-functions.ts). The test run proves each is used (test/support/grants-used.ts).
   */
  readonly tableActions: readonly TableAction[];
  /**
   * only a signed-in person may call it (a bearer token): managing api keys and device tokens, so a leaked key can make
   * itself no successor; an api key answers 403 (docs/console.md)
   */
  readonly personOnly?: true;
  /** S3 access, for operations that keep objects (rendered maps, cached directions) */
  readonly bucket?: 'read-write';
  /** the function queues webhook deliveries (redeliverEvents): it gets the deliveries queue's URL and SendMessage on it */
  readonly queuesDeliveries?: true;
  /** the third-party provider whose configuration (and secret) the function needs in AWS */
  readonly provider?: 'live-map' | 'directions';
  /** 409 answers the operation can give, one message each, as the module that enforces the rule words it */
  readonly conflicts?: readonly string[];
  /** 400 answers the handler gives beyond its parameters' own checks (a webhook URL refused after its host is resolved) */
  readonly badRequests?: readonly string[];
  /** a 404 not owed to a parameter naming a record (getLiveMap without a placed vehicle) */
  readonly notFound?: string;
  readonly examples: OperationExamples;
}

/** Read operations get read-only grants in AWS: a GET never writes. */
export const accessOf = ({ method }: Pick<OperationDeclaration, 'method'>): Access => (method === 'GET' ? 'read' : 'write');
