/**
 * The device functions behind both gateways (docs/devices.md, "URLs"): the HTTP API's payload 2.0 events and the REST
 * API's 1.0 events of the same request get the same checks and the same answers, and put the same records.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { contract as osmand } from '../../functions/osmandPositions/contract.ts';
import { contract as traccar } from '../../functions/traccarPositions/contract.ts';
import { type HttpCall, lambdaContext, toApiGatewayEvent, toHttpApiEvent } from '../../local/api-gateway-event.ts';
import { type DeviceEndpointDependencies, deviceEndpoint } from '../../shared/devices/device-endpoint.ts';
import { restEventOf } from '../../shared/devices/http-api-event.ts';
import { decodeOsmAnd } from '../../shared/devices/osmand.ts';
import type { SinkRecord } from '../../shared/devices/position-sink.ts';
import { decodeTraccar } from '../../shared/devices/traccar.ts';
import { findUserVehiclesByImei } from '../../shared/store/device-tokens.ts';
import { takeFromBucket } from '../../shared/store/rate-limits.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { givenDeviceToken } from '../support/device-builders.ts';

/** The two entry points with a sink that keeps what it was given; tokens, IMEIs and buckets on DynamoDB Local. */
function endpoints() {
  const stored: SinkRecord[][] = [];
  const dependencies: DeviceEndpointDependencies = {
    sink: () => ({ put: async (records) => void stored.push([...records]) }),
    findLinkedImeis: async (userUid, imeis) => new Set((await findUserVehiclesByImei(userUid, imeis)).keys()),
    takeFromBucket,
  };
  return {
    stored,
    osmand: deviceEndpoint(osmand, (request) => ({ protocol: 'osmand', positions: decodeOsmAnd(request) }), dependencies),
    traccar: deviceEndpoint(traccar, ({ json }) => ({ protocol: 'traccar', positions: [decodeTraccar(json)] }), dependencies),
  };
}

async function givenPhone() {
  const user = await givenUser();
  const vehicle = await givenVehicle(user);
  return { vehicle, token: await givenDeviceToken(user) };
}

const aCall = (overrides: Partial<HttpCall>): HttpCall => ({
  method: 'POST',
  path: '/devices/osmand/x',
  operation: 'osmandPositions',
  query: '',
  headers: {},
  body: Buffer.alloc(0),
  sourceIp: '198.51.100.7',
  ...overrides,
});

const osmandCall = (token: string, query: string, method = 'POST') =>
  aCall({ method, path: `/devices/osmand/${token}`, resource: '/devices/osmand/{token}', pathParameters: { token }, query });

const gateways = [
  ['the REST API (payload 1.0)', toApiGatewayEvent],
  ['the HTTP API (payload 2.0)', toHttpApiEvent],
] as const;

const bodyOf = (answer: APIGatewayProxyResult) => JSON.parse(answer.body) as Record<string, unknown>;

describe.each(gateways)('a device request through %s', (_gateway, eventOf) => {
  it('puts an OsmAnd point with its token in the path and answers 200', async () => {
    // Prepare
    const { osmand: handler, stored } = endpoints();
    const { vehicle, token } = await givenPhone();
    // Act
    const answer = await handler(
      eventOf(osmandCall(token, `id=${vehicle.imei}&timestamp=1504763810&lat=40.72&lon=-74.0`)),
      lambdaContext('osmandPositions', 'r1'),
    );
    // Assess
    expect(answer.statusCode).toBe(200);
    expect(bodyOf(answer)).toMatchObject({ result: 'success', accepted: 1 });
    expect(stored).toEqual([[expect.objectContaining({ imei: vehicle.imei, protocol: 'osmand', latitude: 40.72, longitude: -74 })]]);
  });

  it('takes a Traccar position with the token as a Bearer header', async () => {
    // Prepare
    const { traccar: handler, stored } = endpoints();
    const { vehicle, token } = await givenPhone();
    const position = {
      device: { uniqueId: vehicle.imei },
      position: { fixTime: '2026-11-03T08:00:00.000Z', latitude: 52.1, longitude: 4.3, valid: true, attributes: {} },
    };
    const call = aCall({
      path: '/devices/traccar',
      resource: '/devices/traccar',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: Buffer.from(JSON.stringify(position)),
    });
    // Act
    const answer = await handler(eventOf(call), lambdaContext('traccarPositions', 'r2'));
    // Assess
    expect(answer.statusCode).toBe(200);
    expect(stored.flat()).toEqual([expect.objectContaining({ imei: vehicle.imei, latitude: 52.1, longitude: 4.3 })]);
  });

  it('refuses an unknown token with 401 and a wrong method with 405, storing nothing', async () => {
    // Prepare
    const { osmand: handler, stored } = endpoints();
    const { vehicle, token } = await givenPhone();
    const query = `id=${vehicle.imei}&lat=1&lon=2`;
    // Act
    const unknown = await handler(eventOf(osmandCall('not-a-token', query)), lambdaContext('osmandPositions', 'r3'));
    const wrongMethod = await handler(eventOf(osmandCall(token, query, 'DELETE')), lambdaContext('osmandPositions', 'r4'));
    // Assess
    expect([unknown.statusCode, bodyOf(unknown).result]).toEqual([401, 'error']);
    expect([wrongMethod.statusCode, bodyOf(wrongMethod).result]).toEqual([405, 'error']);
    expect(stored).toEqual([]);
  });
});

describe('restEventOf', () => {
  it('reads a payload 2.0 event as the REST API would send the same request', () => {
    // Prepare
    const call = aCall({
      path: '/devices/osmand/t0k',
      resource: '/devices/osmand/{token}',
      pathParameters: { token: 't0k' },
      query: 'id=1&lat=1.5&id=2',
      headers: { 'User-Agent': 'Traccar Client', Cookie: 'a=1; b=2', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: Buffer.from('speed=3'),
    });
    // Act
    const event = restEventOf(toHttpApiEvent(call));
    // Assess
    const rest = toApiGatewayEvent(call);
    expect(event).toMatchObject({
      httpMethod: 'POST',
      path: rest.path,
      resource: rest.resource,
      pathParameters: rest.pathParameters,
      queryStringParameters: rest.queryStringParameters,
      headers: { 'user-agent': 'Traccar Client', cookie: 'a=1; b=2' },
    });
    expect(Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8').toString()).toBe('speed=3');
    expect(event.requestContext.requestId).toEqual(expect.any(String));
  });

  it('leaves a payload 1.0 event as it is', () => {
    const rest = toApiGatewayEvent(aCall({}));
    expect(restEventOf(rest)).toBe(rest);
  });
});
