/**
 * Devices reach their functions through two gateways (docs/devices.md): the HTTP API (API Gateway v2, payload format
 * 2.0, $1.00 a million requests) and, while phones move over, the REST API's /devices/ resources (payload 1.0). The
 * chain reads the REST shape, so an HTTP API event is put in it first: one reading of a request, whichever door it
 * came through. Answers need nothing: payload 2.0 takes the same statusCode, headers, body and isBase64Encoded.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpMiddleware, HttpRequest } from '../middleware/types.ts';

export type DeviceEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

const isHttpApiEvent = (event: DeviceEvent): event is APIGatewayProxyEventV2 => (event as APIGatewayProxyEventV2).version === '2.0';

/** The query as the REST API gives it: a repeated parameter keeps its last value (payload 2.0 joins them with commas). */
function restQuery(rawQueryString: string): Record<string, string> | null {
  const query = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(rawQueryString)) query.set(name, value);
  return query.size > 0 ? Object.fromEntries(query) : null;
}

/** An HTTP API event in the REST API's shape; a REST event as it is. */
export function restEventOf(event: DeviceEvent): APIGatewayProxyEvent {
  if (!isHttpApiEvent(event)) return event;
  const { http, requestId, accountId, apiId, stage, timeEpoch } = event.requestContext;
  // Payload 2.0 moves the Cookie header into `cookies` and lower-cases names; the chain looks headers up by any case.
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(event.headers ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  if (event.cookies?.length) headers.cookie = event.cookies.join('; ');
  const resource = event.routeKey.replace(/^\S+\s+/, '');
  const queryStringParameters = restQuery(event.rawQueryString ?? '');
  return {
    resource,
    path: event.rawPath,
    httpMethod: http.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters,
    multiValueQueryStringParameters: null,
    pathParameters: (event.pathParameters as Record<string, string> | undefined) ?? null,
    stageVariables: null,
    body: event.body ?? null,
    isBase64Encoded: event.isBase64Encoded,
    requestContext: {
      accountId,
      apiId,
      authorizer: null,
      protocol: http.protocol,
      httpMethod: http.method,
      path: http.path,
      stage,
      requestId,
      requestTimeEpoch: timeEpoch,
      resourceId: event.routeKey,
      resourcePath: resource,
      identity: { sourceIp: http.sourceIp, userAgent: http.userAgent },
    } as APIGatewayProxyEvent['requestContext'],
  };
}

/** First in the device chain: every later step reads the REST shape. */
export const httpApiEvents = (): HttpMiddleware => ({
  name: 'httpApiEvents',
  before: (request: HttpRequest) => {
    request.event = restEventOf(request.event as DeviceEvent);
  },
});
