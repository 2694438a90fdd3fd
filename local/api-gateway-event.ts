import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { limits } from '../shared/config.ts';

export interface HttpCall {
  method: string;
  path: string;
  /** the registry name: the deployed API has one fixed `/api/<name>` resource per operation */
  operation: string;
  /** the raw query string, without '?' */
  query: string;
  headers: Record<string, string>;
  body: Buffer;
  sourceIp: string;
  /** a device entry point's resource (`/devices/osmand/{token}`) and its path parameters; operations have `/api/<name>` and none */
  resource?: string;
  pathParameters?: Record<string, string>;
}

/**
 * The API Gateway REST proxy event (payload 1.0) that the deployed API sends: every operation has its own
 * fixed `/api/<name>` resource (infra/api/operation-functions.ts), so there are no path parameters.
 */
export function toApiGatewayEvent(call: HttpCall): APIGatewayProxyEvent {
  // A Map, as a parameter may be called `constructor` or `__proto__`.
  const multiValueQuery = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(call.query)) multiValueQuery.set(name, [...(multiValueQuery.get(name) ?? []), value]);
  const header = (name: string) => Object.entries(call.headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const requestId = randomUUID();
  const hasQuery = multiValueQuery.size > 0;
  const resource = call.resource ?? `/api/${call.operation}`;
  return {
    resource,
    path: call.path,
    httpMethod: call.method,
    headers: call.headers,
    multiValueHeaders: Object.fromEntries(Object.entries(call.headers).map(([name, value]) => [name, [value]])),
    // API Gateway keeps the last value of a repeated parameter here.
    queryStringParameters: hasQuery ? Object.fromEntries([...multiValueQuery].map(([k, v]) => [k, v.at(-1) ?? ''])) : null,
    multiValueQueryStringParameters: hasQuery ? Object.fromEntries(multiValueQuery) : null,
    pathParameters: call.pathParameters ?? null,
    stageVariables: null,
    // The deployed API treats every media type as binary (infra/fleet-tracking-stack.ts), so bodies arrive base64-encoded.
    body: call.body.length === 0 ? null : call.body.toString('base64'),
    isBase64Encoded: call.body.length > 0,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: call.method,
      path: `/local${call.path}`,
      stage: 'local',
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: resource,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: call.sourceIp,
        user: null,
        userAgent: header('user-agent') ?? null,
        userArn: null,
      },
    },
  };
}

/** Content types the HTTP API passes as text; any other body arrives base64-encoded. */
const TEXT_BODY = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)|[^;]*\+(json|xml))/i;

/**
 * The HTTP API (API Gateway v2) event, payload format 2.0, that the devices' gateway sends their functions
 * (infra/positions/device-endpoints.ts): lower-case header names, cookies apart, the raw query string, a route key.
 */
export function toHttpApiEvent(call: HttpCall): APIGatewayProxyEventV2 {
  const headers = Object.fromEntries(Object.entries(call.headers).map(([name, value]) => [name.toLowerCase(), value]));
  const { cookie, ...withoutCookie } = headers;
  const query = new URLSearchParams(call.query);
  const joined = new Map<string, string>();
  for (const [name, value] of query) joined.set(name, joined.has(name) ? `${joined.get(name)},${value}` : value);
  const text = TEXT_BODY.test(headers['content-type'] ?? '');
  const routeKey = `ANY ${call.resource ?? `/api/${call.operation}`}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: call.path,
    rawQueryString: call.query,
    ...(cookie ? { cookies: cookie.split(/;\s*/) } : {}),
    headers: withoutCookie,
    ...(joined.size > 0 ? { queryStringParameters: Object.fromEntries(joined) } : {}),
    ...(call.pathParameters ? { pathParameters: call.pathParameters } : {}),
    ...(call.body.length > 0 ? { body: call.body.toString(text ? 'utf8' : 'base64') } : {}),
    isBase64Encoded: call.body.length > 0 && !text,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: call.method,
        path: call.path,
        protocol: 'HTTP/1.1',
        sourceIp: call.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  };
}

/** A Lambda context good enough for middy and Powertools. */
export function lambdaContext(functionName: string, requestId: string, timeoutMs = limits.functionTimeoutSeconds * 1000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(deadline - Date.now(), 0),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
