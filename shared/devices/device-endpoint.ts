/**
 * The one chain every HTTP device entry point is built with, beside `operation(...)` for the API: Powertools,
 * telemetry, the error mapper and the envelope as there; then method → body size → device token. The handler
 * turns the request into normalized records; this module checks them, refuses IMEIs that are not vehicles of the
 * token's user, takes one request from the token's bucket and from each IMEI's (429 with Retry-After past either),
 * and answers 200 only once the sink took every record (503 when it did not).
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { config } from '../config.ts';
import type { DeviceEndpointDeclaration } from '../contracts/device-endpoint.ts';
import type { Allowance, BucketPolicy } from '../domain/token-bucket.ts';
import { type Position, positionOf } from '../domain/tracking/position.ts';
import { BadRequest, NotFound, PayloadTooLarge, ServiceUnavailable, Throttled } from '../errors.ts';
import { expiringCache } from '../expiring-cache.ts';
import { answerEncoding } from '../middleware/answer-encoding.ts';
import { deviceTokenAuth } from '../middleware/device-token-auth.ts';
import { envelopeSerializer } from '../middleware/envelope.ts';
import { errorMapper } from '../middleware/error-mapper.ts';
import { methodGuard } from '../middleware/method-guard.ts';
import { parseRequest } from '../middleware/parse-request.ts';
import { rateLimitHeaders } from '../middleware/rate-limit.ts';
import { identifyUser, publishMetricsWhenAny, requestTelemetry } from '../middleware/telemetry.ts';
import { type HttpRequest, type RequestState, tokenUserOf } from '../middleware/types.ts';
import { findDeviceToken, findUserVehiclesByImei, hashDeviceToken } from '../store/device-tokens.ts';
import { type Key, keys } from '../store/keys.ts';
import { takeFromQuietBucket } from '../store/rate-limits.ts';
import { logger, MetricUnit, metricNames, metrics, tracer } from '../telemetry.ts';
import { traceInvocation } from '../tracing.ts';
import { type DeviceEvent, httpApiEvents } from './http-api-event.ts';
import type { DecodedPosition } from './osmand.ts';
import type { PositionSink } from './position-sink.ts';
import { positionSink } from './sinks.ts';

/** Positions one request may carry: a phone's buffer sent at once stays far below it. */
export const MAX_POSITIONS_PER_REQUEST = 1000;

/** What a device request is, as the protocol's decoder needs it. */
export interface DeviceRequest {
  /** query string merged with form-encoded body parameters (the body wins) */
  params: Record<string, string>;
  /** the parsed JSON body, when the body is JSON */
  json?: unknown;
  receivedAt: string;
}

export interface DecodedRequest {
  /** the value of every record's `protocol` */
  protocol: string;
  positions: readonly DecodedPosition[];
}

export interface DeviceEndpointDependencies {
  sink: () => PositionSink;
  /** of the IMEIs given, those that are vehicles linked to the user */
  findLinkedImeis: (userUid: number, imeis: readonly string[]) => Promise<ReadonlySet<string>>;
  /** takes one request from a bucket (store/rate-limits.ts: a quiet device's request costs no write) */
  takeFromBucket: (bucket: Key, policy: BucketPolicy) => Promise<Allowance>;
}

export function deviceEndpoint(
  endpoint: DeviceEndpointDeclaration,
  decode: (request: DeviceRequest) => DecodedRequest,
  given: Partial<DeviceEndpointDependencies> = {},
) {
  const dependencies: DeviceEndpointDependencies = {
    sink: positionSink,
    findLinkedImeis: cachedLinkedImeis(),
    takeFromBucket: takeFromQuietBucket,
    ...given,
  };
  // the headers only: the buckets are taken in the handler, once the request's IMEIs are known to be the user's
  const limitHeaders = rateLimitHeaders(() => undefined);
  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, RequestState>()
    .use(httpApiEvents())
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(traceInvocation(tracer))
    .use(publishMetricsWhenAny(metrics))
    .use(requestTelemetry(endpoint.name, { countEachRequest: false }))
    .use(answerEncoding())
    .use(limitHeaders)
    .use(errorMapper({ operation: endpoint.name }))
    .use(envelopeSerializer())
    .use(methodGuard(endpoint.methods))
    .use(parseRequest({ jsonBody: 'payload' }))
    .use(
      deviceTokenAuth({
        findTokenOwner: async (tokenHash) => {
          const token = await findDeviceToken(tokenHash);
          return token && { userUid: token.userUid, revoked: token.revokedAt !== null };
        },
        hashToken: hashDeviceToken,
        cacheTtlMs: config.deviceTokenCacheMs(),
      }),
    )
    .before(captureRequest)
    .handler(async (_event, context) => {
      const { request } = context as DeviceLambdaContext;
      const userUid = tokenUserOf(request);
      identifyUser(userUid);
      const receivedAt = new Date().toISOString();
      const decoded = decode({ ...readRequest(request), receivedAt });
      const accepted = await accept(request, userUid, decoded, receivedAt, dependencies);
      return { accepted } as unknown as APIGatewayProxyResult;
    });
  // Both gateways invoke it: the HTTP API with payload 2.0, the REST API's /devices/ resources with 1.0.
  return chain as unknown as (event: DeviceEvent, context: Context) => Promise<APIGatewayProxyResult>;
}

/** middy hands the handler only (event, context): the chain's findings ride on the context, as in operation(). */
type DeviceLambdaContext = Context & { request: HttpRequest };

function captureRequest(request: HttpRequest): void {
  (request.context as DeviceLambdaContext).request = request;
}

function readRequest({ internal }: HttpRequest): Omit<DeviceRequest, 'receivedAt'> {
  const params = Object.fromEntries(Object.entries(internal.params ?? {}).map(([name, value]) => [name, String(value)]));
  const body = internal.body ?? { kind: 'none' };
  if (body.kind === 'invalid-json') throw new BadRequest('request body is not valid JSON');
  return body.kind === 'json' ? { params, json: body.value } : { params };
}

/** Checks every record, then the IMEIs, then puts them all on the sink: a refused request stores nothing. */
async function accept(
  request: HttpRequest,
  userUid: number,
  decoded: DecodedRequest,
  receivedAt: string,
  dependencies: DeviceEndpointDependencies,
) {
  if (decoded.positions.length > MAX_POSITIONS_PER_REQUEST) {
    throw new PayloadTooLarge(`too many positions (max ${MAX_POSITIONS_PER_REQUEST} a request)`);
  }
  const records = decoded.positions.map((position) => normalized({ ...position, protocol: decoded.protocol, received_at: receivedAt }));
  const dropped = records.reduce((count, record) => count + (record.dropped_readings?.length ?? 0), 0);
  if (dropped > 0) {
    metrics.addMetric(metricNames.deviceReadingsDropped, MetricUnit.Count, dropped);
    logger.info('device readings dropped: out of range or unreadable, their points kept', { user_uid: userUid, readings: dropped });
  }
  const imeis = [...new Set(records.map((record) => String(record.imei)))];
  const linked = await dependencies.findLinkedImeis(userUid, imeis);
  const refused = imeis.filter((imei) => !linked.has(imei));
  if (refused.length > 0) {
    const count = records.filter((record) => refused.includes(String(record.imei))).length;
    metrics.addMetric(metricNames.devicePositionsRefused, MetricUnit.Count, count);
    logger.warn('device positions refused: imei not a vehicle of the token user', { user_uid: userUid, imeis: refused, positions: count });
    throw new NotFound(`imei ${refused[0]} is not a vehicle of this device token's user`);
  }
  await takeRequest(request, imeis, dependencies);
  try {
    await dependencies.sink().put(records);
  } catch (error) {
    logger.warn('positions not accepted by the stream; the device will resend', { error: error as Error, positions: records.length });
    throw new ServiceUnavailable('position stream unavailable, retry later', { cause: error });
  }
  return records.length;
}

/**
 * One request from the token's bucket and from each IMEI's, in parallel (one round trip, none while the buckets are
 * quiet: takeFromQuietBucket): the tightest answers the RateLimit header, and past either the request is refused with
 * 429 and Retry-After, which the Traccar Client honours by keeping its buffer. An IMEI's bucket is taken only once it
 * is known to be the user's, so no one can drain another tenant's.
 */
async function takeRequest(request: HttpRequest, imeis: readonly string[], { takeFromBucket: take }: DeviceEndpointDependencies) {
  const { perToken, perImei } = config.deviceRateLimits();
  const tokenHash = request.internal.deviceTokenHash as string;
  const [forToken, ...forImeis] = await Promise.all([
    take(keys.deviceTokenBucket(tokenHash), perToken),
    ...imeis.map((imei) => take(keys.imeiBucket(imei), perImei)),
  ]);
  const allowances = [forToken as Allowance, ...forImeis];
  const tightest = allowances.find((allowance) => !allowance.allowed) ?? minBy(allowances, (allowance) => allowance.remaining);
  request.internal.rateLimitTaken = Promise.resolve({ allowance: tightest });
  if (tightest.allowed) return;
  metrics.addMetric(metricNames.deviceRequestsThrottled, MetricUnit.Count, 1);
  const imei = imeis[forImeis.findIndex((allowance) => !allowance.allowed)];
  throw new Throttled(
    imei === undefined ? 'too many requests for this device token, retry later' : `too many requests for imei ${imei}, retry later`,
  );
}

const minBy = <T>(items: readonly T[], measure: (item: T) => number): T =>
  items.reduce((least, item) => (measure(item) < measure(least) ? item : least));

/**
 * The record as the pipeline will read it, its readings that do not fit dropped and named (dropped_readings), or
 * 400 when its fix is unusable (coordinates out of range, a malformed IMEI…): what is answered 200 is stored.
 */
function normalized(record: Record<string, unknown>): Position {
  const parsed = positionOf(record);
  if (!parsed.ok) throw new BadRequest(parsed.reason);
  return parsed.position;
}

/**
 * The user's IMEIs, remembered per container as long as a token is (≤ 60 s): a phone reporting every few seconds
 * costs one token read and two small batch reads a minute, not a DynamoDB read per point.
 */
function cachedLinkedImeis(): DeviceEndpointDependencies['findLinkedImeis'] {
  const known = expiringCache<boolean>(config.deviceTokenCacheMs());
  return async (userUid, imeis) => {
    const unknown = imeis.filter((imei) => known.get(`${userUid}#${imei}`) === undefined);
    if (unknown.length > 0) {
      const found = await findUserVehiclesByImei(userUid, unknown);
      for (const imei of unknown) known.set(`${userUid}#${imei}`, found.has(imei));
      return new Set(imeis.filter((imei) => found.has(imei) || known.get(`${userUid}#${imei}`) === true));
    }
    return new Set(imeis.filter((imei) => known.get(`${userUid}#${imei}`) === true));
  };
}
