import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy, { type Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as v from 'valibot';
import { config } from './config.ts';
import { accessOf, type BinaryOutput, type OperationDeclaration, type OutputSchema } from './contracts/operation.ts';
import type { ParsedBody } from './contracts/request-body.ts';
import type { AuthenticatedUser, SignedInAs } from './domain/user.ts';
import { acceptsGzip, answerEncoding } from './middleware/answer-encoding.ts';
import { apiKeyAuth } from './middleware/api-key-auth.ts';
import { type BinaryResult, envelopeSerializer } from './middleware/envelope.ts';
import { errorMapper } from './middleware/error-mapper.ts';
import { idempotency, type LiveSecrets } from './middleware/idempotency.ts';
import { methodGuard } from './middleware/method-guard.ts';
import { parseRequest } from './middleware/parse-request.ts';
import { bucketVerdict, rateLimit, rateLimitHeaders } from './middleware/rate-limit.ts';
import { identifyUser, requestTelemetry } from './middleware/telemetry.ts';
import { authenticatedUser, headerValue, type RequestState } from './middleware/types.ts';
import { validateInput } from './middleware/validate-input.ts';
import { type AnswerContext, answerBudgetBytes } from './paging/answer-page.ts';
import { verifyAccessToken } from './sign-in/access-tokens.ts';
import { findApiKey, markApiKeyUsed } from './store/api-keys.ts';
import { findPerson } from './store/people.ts';
import { takeToken } from './store/rate-limits.ts';
import { logger, metrics, tracer } from './telemetry.ts';
import { traceInvocation } from './tracing.ts';

export interface OperationContext<Input> {
  user: AuthenticatedUser;
  /** the signed-in person, when a bearer token was presented (always, for a personOnly operation) */
  person: SignedInAs | undefined;
  input: Input;
  /** the parsed body, for operations whose body is a document rather than parameters */
  body: ParsedBody;
  sourceIp: string;
  /** the operation and the bytes of records its answer may carry (shared/paging) */
  answer: AnswerContext;
  /** where this API's device entry points are, as the request reached it (addDeviceToken's OsmAnd URL) */
  devicesUrl: string;
  /**
   * waits for the api key's bucket and throws its refusal (429) or its store's failure: a read runs alongside its
   * bucket, and awaits this before it calls a service billed per call (getLiveMap's provider)
   */
  bucketVerdict: () => Promise<void>;
}

export type OperationResult = Record<string, unknown> | BinaryResult;

type Answer<O> = O extends OutputSchema ? v.InferOutput<O> : O extends BinaryOutput ? BinaryResult : OperationResult;

/** An idempotent create whose answer holds a secret must say how to read it back (a replay shows only a live one). */
type OperationOptions<C> = C extends { idempotencyKey: true; secretFields: readonly string[] }
  ? [options: { liveSecrets: LiveSecrets }]
  : [options?: { liveSecrets?: never }];

/**
 * The one place the middy chain is built. Outermost, Powertools: the Lambda context on every log line, the
 * X-Ray segment, the metrics flush, then this request's telemetry. Before: method → parse → api key (the one
 * credentials step) → its per-key rate limit (alongside a read, before a write) → validate → Idempotency-Key
 * where the operation declares it; the handler returns plain fields; after: envelope, then the rate-limit
 * headers, then gzip and Lambda's size limit; onError: the error mapper, then the same headers, gzip and size limit.
 */
export function operation<C extends OperationDeclaration>(
  contract: C,
  run: (context: OperationContext<v.InferOutput<C['input']>>) => Promise<Answer<C['output']>>,
  ...[options]: OperationOptions<C>
) {
  const { name } = contract;
  const perKeyLimit = rateLimit({ takeToken, policy: config.rateLimit });
  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, RequestState>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    // The response may hold a tenant's data: traces keep timings and annotations only.
    .use(traceInvocation(tracer))
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .use(requestTelemetry(name))
    .use(answerEncoding())
    .use(rateLimitHeaders(config.rateLimit))
    .use(errorMapper({ operation: name }))
    .use(envelopeSerializer())
    .use(methodGuard(contract.method))
    .use(parseRequest(contract))
    .use(
      apiKeyAuth({
        findApiKey,
        findPerson,
        verifyAccessToken,
        markApiKeyUsed,
        personOnly: contract.personOnly === true,
        cacheTtlMs: config.apiKeyCacheMs(),
      }),
    )
    .use(spendsAlongside(contract) ? perKeyLimit.alongside : perKeyLimit.first)
    .use(validateInput(contract.input));
  if (contract.idempotencyKey) {
    chain.use(idempotency(name, { jsonBody: contract.jsonBody, secretFields: contract.secretFields, liveSecrets: options?.liveSecrets }));
  }
  chain
    .before((request) => handOverToHandler(request, name))
    .handler(async (_event, context) => {
      const { operation: prepared, replay } = context as OperationLambdaContext<v.InferOutput<C['input']>>;
      return (replay ?? (await run(prepared))) as unknown as APIGatewayProxyResult;
    });
  return chain;
}

/**
 * A read's own requests start with its bucket's write rather than after it (no round trip of its own), and a read
 * refused meanwhile answers 429 and nothing it read; a write spends the bucket first, so a refused one changes nothing.
 * A read that calls a provider (getLiveMap) awaits the verdict just before the call (`bucketVerdict`): a refused
 * request never reaches a service billed per call, and its own reads still start with the bucket's write.
 */
const spendsAlongside = (contract: OperationDeclaration): boolean => accessOf(contract) === 'read';

/** middy hands the handler only (event, context): like @middy's setToContext, the chain's findings ride on the context. */
type OperationLambdaContext<Input> = Context & { operation: OperationContext<Input>; replay?: Record<string, unknown> };

function handOverToHandler(
  request: Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, RequestState>,
  operation: string,
): void {
  const { internal, event } = request;
  const user = authenticatedUser(request);
  identifyUser(user.userUid);
  (request.context as OperationLambdaContext<unknown>).replay = internal.replay;
  (request.context as OperationLambdaContext<unknown>).operation = {
    user,
    person: internal.person,
    input: internal.input,
    body: internal.body ?? { kind: 'none' },
    sourceIp: event.requestContext?.identity?.sourceIp ?? '',
    answer: { operation, budgetBytes: answerBudgetBytes(acceptsGzip(headerValue(event, 'accept-encoding'))) },
    devicesUrl: devicesUrlOf(event),
    bucketVerdict: () => bucketVerdict(internal),
  };
}

/**
 * The device entry points' base URL as this request reached the API: API Gateway's own name and stage deployed (a phone
 * reports there, not through CloudFront, whose origin /api/* only is), the Host the local emulator was called at.
 */
function devicesUrlOf(event: APIGatewayProxyEvent): string {
  const { domainName, stage } = event.requestContext ?? {};
  if (stage === 'local' || !domainName) return `http://${headerValue(event, 'host') ?? '127.0.0.1'}/devices/`;
  return `https://${domainName}/${stage}/devices/`;
}
