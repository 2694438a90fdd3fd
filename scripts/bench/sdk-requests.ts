/**
 * DynamoDB and S3 requests (and a webhook's POST) as a call sent them, and sent again through the SDK (and node:http):
 * the operations bench sends a call's requests again beside it (what its own requests cost), the bundles bench sends a
 * cold function's first requests again from the same-SDK handler's fresh process (what a cold call's own requests
 * cost, SDK first use included).
 * Kept to erasable TypeScript and the SDK's own packages: a bench child process imports it as it is, and the same-SDK
 * handler bundles it.
 */
import { createRequire } from 'node:module';
import type { Client } from '@smithy/smithy-client';

/** One request as the service sent it (a DynamoDB input marshalled), and the round it started in. */
export interface SentRequest {
  round: number;
  /** the SDK's service id, DynamoDB or S3; or HTTP, a webhook's POST (its input a SentPost) */
  service: string;
  command: string;
  input: object;
  /**
   * sent by the document client (lib-dynamodb), which answered the service plain values: sent again, its answer is
   * unmarshalled the same way, as the SDK's work and not the service's
   */
  document?: boolean;
}

/**
 * `document` for a request the document client sent, seen at the build step: its marshalling middleware marks the call
 * with the SDK feature DDB_MAPPER (which the SDK reports in its user agent).
 */
export const documentClientMark = (context: object): { document?: true } =>
  (context as { __aws_sdk_context?: { features?: Record<string, unknown> } }).__aws_sdk_context?.features?.DDB_MAPPER === undefined
    ? {}
    : { document: true };

/** The requests of one call so far; `answeredRound` is the deepest round that has answered: a request starting now begins the next. */
export interface RequestLog {
  requests: SentRequest[];
  answeredRound: number;
}

/** A request of the log: started in the round after the deepest answered one, which it deepens once answered. */
export async function logged<T>(log: RequestLog, sent: Omit<SentRequest, 'round'>, send: () => Promise<T>): Promise<T> {
  const answered = loggedStart(log, sent);
  try {
    return await send();
  } finally {
    answered();
  }
}

/** A request of the log seen start and answer apart (on Node's HTTP client channels): call what it answers when it answers. */
export function loggedStart(log: RequestLog, sent: Omit<SentRequest, 'round'>): () => void {
  const round = log.answeredRound + 1;
  log.requests.push({ round, ...sent });
  return () => {
    log.answeredRound = Math.max(log.answeredRound, round);
  };
}

/** A webhook's POST as the service sent it (shared/webhooks/attempt.ts): its body stands in as that many bytes. */
export interface SentPost {
  url: string;
  headers: Record<string, string>;
  bodyBytes: number;
}

/** The POST again as the service sends it: no pooled connection, settled on the status line, the socket destroyed. */
const postAgain = ({ url, headers, bodyBytes }: SentPost): Promise<void> =>
  new Promise((resolve, reject) => {
    const { request } = createRequire(import.meta.url)('node:http') as typeof import('node:http');
    const req = request(url, { method: 'POST', headers, agent: false });
    req.on('error', reject);
    req.on('response', () => {
      req.destroy();
      resolve();
    });
    req.end('x'.repeat(bodyBytes));
  });

type AnyClient = Client<any, any, any, any>;

/**
 * From now on every SDK client of this process logs its requests at the build step (where the document client has
 * marshalled its input, which is sent again as is): for a bench child process, after its timed import.
 */
export function logEverySdkRequest(): RequestLog {
  const log: RequestLog = { requests: [], answeredRound: 0 };
  const { Client: SdkClient } = createRequire(import.meta.url)('@smithy/smithy-client') as { Client: { prototype: AnyClient } };
  const send = SdkClient.prototype.send;
  const logging = new WeakSet<object>();
  SdkClient.prototype.send = function sendLogged(this: AnyClient, ...args: Parameters<AnyClient['send']>) {
    if (!logging.has(this.middlewareStack)) {
      logging.add(this.middlewareStack);
      const service = String(this.config.serviceId);
      this.middlewareStack.add(
        (next, context) => (call) =>
          logged(log, { service, command: String(context.commandName), input: call.input as object, ...documentClientMark(context) }, () =>
            next(call),
          ),
        { step: 'build', name: 'benchRequestLog' },
      );
    }
    return send.apply(this, args) as ReturnType<AnyClient['send']>;
  } as AnyClient['send'];
  return log;
}

/** Requests as JSON, bytes (an S3 body, a binary attribute) as base64. */
export const requestsToJson = (requests: readonly SentRequest[]): string =>
  JSON.stringify(requests, (_key, value: unknown) =>
    value instanceof Uint8Array ? { base64: Buffer.from(value).toString('base64') } : value,
  );

export const requestsFromJson = (text: string): SentRequest[] =>
  JSON.parse(text, (_key, value: unknown) =>
    value && typeof value === 'object' && 'base64' in value && Object.keys(value).length === 1
      ? new Uint8Array(Buffer.from(String(value.base64), 'base64'))
      : value,
  ) as SentRequest[];

/** The clients to send requests again through, by service id. */
export type ClientsByService = Partial<Record<string, { send(command: object): Promise<unknown> }>>;

/** Each service's package: its commands are loaded from it when first sent (a package already loaded costs nothing). */
const PACKAGES: Record<string, () => Promise<Record<string, unknown>>> = {
  DynamoDB: () => import('@aws-sdk/client-dynamodb'),
  S3: () => import('@aws-sdk/client-s3'),
};

/** The items of a DynamoDB answer, where lib-dynamodb's unmarshalling finds them (its commands' outputKeyNodes). */
export interface DynamoAnswer {
  Item?: Record<string, unknown>;
  Items?: Record<string, unknown>[];
  Attributes?: Record<string, unknown>;
  LastEvaluatedKey?: Record<string, unknown>;
  Responses?: Record<string, Record<string, unknown>[]> | Array<{ Item?: Record<string, unknown> }>;
}

/** A DynamoDB answer's items made plain values, as the document client made them for the service. */
export function unmarshallAsDocumentClient(answer: DynamoAnswer, unmarshall: (item: Record<string, unknown>) => unknown): void {
  const items = [answer.Item, answer.Attributes, answer.LastEvaluatedKey, ...(answer.Items ?? [])];
  if (Array.isArray(answer.Responses)) items.push(...answer.Responses.map((response) => response.Item));
  else items.push(...Object.values(answer.Responses ?? {}).flat());
  for (const item of items) if (item) unmarshall(item);
}

/**
 * One request ready to go again; an S3 object read is read to its end, as the service reads it, and a document
 * client's answer is unmarshalled, as the service received it.
 */
async function prepared({ service, command, input, document }: SentRequest, clients: ClientsByService): Promise<() => Promise<void>> {
  if (service === 'HTTP') return () => postAgain(input as SentPost);
  const client = clients[service];
  const Command = (await PACKAGES[service]?.())?.[command] as (new (input: object) => object) | undefined;
  if (!client || !Command) throw new Error(`the bench cannot send ${service} ${command} again`);
  const { unmarshall } = document ? await import('@aws-sdk/util-dynamodb') : { unmarshall: undefined };
  return async () => {
    const output = (await client.send(new Command(input))) as DynamoAnswer & {
      Body?: { transformToByteArray?: () => Promise<Uint8Array> };
    };
    await output.Body?.transformToByteArray?.();
    if (unmarshall) unmarshallAsDocumentClient(output, (item) => unmarshall(item as never));
  };
}

/** The call's requests again, round by round, those of a round together; a refusal (a condition now false) is an answer too. */
export async function sendAgain(requests: readonly SentRequest[], clients: ClientsByService): Promise<void> {
  const rounds = [...new Set(requests.map((request) => request.round))].sort((a, b) => a - b);
  for (const inRound of rounds) {
    const sends = await Promise.all(requests.filter((request) => request.round === inRound).map((request) => prepared(request, clients)));
    await Promise.allSettled(sends.map((send) => send()));
  }
}
