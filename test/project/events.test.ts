import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { deviceEndpoints, handlerPath, type Operation, operations, streamConsumers } from '../../functions/registry.ts';
import { FleetTrackingStack } from '../../infra/fleet-tracking-stack.ts';
import { lambdaContext } from '../../local/api-gateway-event.ts';
import { withApiKey } from '../../scripts/invoke.ts';
import { parameterNamesOf } from '../../shared/contracts/operation.ts';
import { SYNTH_TIMEOUT_MS } from '../infra/service-template.ts';
import { givenUser } from '../support/builders.ts';

/** A URL, not a template path: vite would try (and fail) to resolve a variable import path at transform time. */
const handlerUrl = (name: string): string => new URL(`../../${handlerPath(name)}`, import.meta.url).href;

type Resource = { Properties: { ParentId?: unknown; PathPart?: string; ResourceId?: unknown; HttpMethod?: string } };

/** The paths of the API Gateway resources the stack gives a method, built from each resource's chain of parents. */
function declaredResourcePaths(template: Template): Set<string> {
  const resources = template.findResources('AWS::ApiGateway::Resource') as Record<string, Resource>;
  const pathOf = (id: string): string => {
    const { ParentId, PathPart } = resources[id]?.Properties ?? {};
    const parent = (ParentId as { Ref?: string } | undefined)?.Ref;
    return `${parent ? pathOf(parent) : ''}/${PathPart}`;
  };
  const methods = Object.values(template.findResources('AWS::ApiGateway::Method') as Record<string, Resource>);
  return new Set(
    methods
      .map(({ Properties }) => (Properties.ResourceId as { Ref?: string }).Ref)
      .filter((id) => id !== undefined)
      .map(pathOf),
  );
}

let declaredPaths: Set<string>;

beforeAll(() => {
  // Bundling is skipped: only the routes the stack declares are read.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  declaredPaths = declaredResourcePaths(Template.fromStack(new FleetTrackingStack(app, 'Events')));
}, SYNTH_TIMEOUT_MS);

/** The parameters a sample event sends (the api key aside), every declared one present as the chain passes them. */
function parametersOf(event: APIGatewayProxyEvent, operation: Operation): Record<string, unknown> {
  const { api_key: _key, ...query } = event.queryStringParameters ?? {};
  const body = event.body === null ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  const form = /urlencoded/.test(event.headers['Content-Type'] ?? '') ? Object.fromEntries(new URLSearchParams(body)) : {};
  const sent: Record<string, unknown> = { ...query, ...form };
  return Object.fromEntries(parameterNamesOf(operation.input).map((name) => [name, sent[name]]));
}

describe.each(operations.map((operation) => [operation.name, operation] as const))('events/%s.json', (name, operation) => {
  it("sends parameters its declaration names and accepts, and nothing else's", () => {
    // Prepare
    const event = JSON.parse(readFileSync(`events/${name}.json`, 'utf8')) as APIGatewayProxyEvent;
    // Act
    const parsed = v.safeParse(operation.input, parametersOf(event, operation));
    // Assess
    const { api_key: _key, ...query } = event.queryStringParameters ?? {};
    for (const parameter of Object.keys(query)) expect(parameterNamesOf(operation.input), parameter).toContain(parameter);
    expect(parsed.issues?.map((issue) => issue.message) ?? [], name).toEqual([]);
  });

  it('is the REST proxy event of the fixed resource the stack declares for it, without path parameters', () => {
    // Prepare
    const event = JSON.parse(readFileSync(`events/${name}.json`, 'utf8')) as APIGatewayProxyEvent;
    // Act
    const resource = `/api/${name}`;
    // Assess
    expect(declaredPaths).toContain(resource);
    expect(event).toMatchObject({ resource, path: resource, httpMethod: operation.method, pathParameters: null });
    expect(event.requestContext).toMatchObject({ resourcePath: resource, httpMethod: operation.method });
  });

  it('is answered by its handler in the envelope', async () => {
    // Prepare
    const event = JSON.parse(readFileSync(`events/${name}.json`, 'utf8')) as APIGatewayProxyEvent;
    const user = await givenUser();
    const { handler } = (await import(handlerUrl(name))) as {
      handler: (e: APIGatewayProxyEvent, c: Context) => Promise<APIGatewayProxyResult>;
    };
    // Act
    const result = await handler(withApiKey(event, user.key), lambdaContext(name, 'event-check'));
    // Assess
    expect(result.statusCode).toBeLessThan(500);
    expect(JSON.parse(result.body)).toMatchObject({ version: '1', result: expect.stringMatching(/^(success|error)$/) });
  });
});

describe.each(deviceEndpoints.map((endpoint) => [endpoint.name, endpoint] as const))('events/%s.json', (name, endpoint) => {
  it('is the REST proxy event of a device resource the stack declares, answered by its handler in the envelope', async () => {
    // Prepare
    const event = JSON.parse(readFileSync(`events/${name}.json`, 'utf8')) as APIGatewayProxyEvent;
    const { handler } = (await import(handlerUrl(name))) as {
      handler: (e: APIGatewayProxyEvent, c: Context) => Promise<APIGatewayProxyResult>;
    };
    // Act
    const result = await handler(event, lambdaContext(name, 'event-check'));
    // Assess
    expect(endpoint.resources).toContain(event.resource);
    expect(declaredPaths).toContain(event.resource);
    expect(endpoint.methods).toContain(event.httpMethod);
    // The sample's token is a placeholder: the handler refuses it in the envelope.
    expect(result.statusCode).toBe(401);
    expect(JSON.parse(result.body)).toMatchObject({ version: '1', result: 'error', error_msg: 'unknown or revoked device token' });
  });
});

describe('events/processPositions.json', () => {
  it('is a Kinesis event of position records that the pipeline handler processes without failures', async () => {
    // Prepare
    const event = JSON.parse(readFileSync('events/processPositions.json', 'utf8'));
    const { handler } = await import(handlerUrl(streamConsumers[0].name));
    // Act
    const result = await handler(event);
    // Assess
    expect(event.Records.length).toBeGreaterThan(0);
    expect(event.Records[0]).toMatchObject({
      eventSource: 'aws:kinesis',
      kinesis: { data: expect.any(String), sequenceNumber: expect.any(String) },
    });
    expect(result).toEqual({ batchItemFailures: [] });
  });
});
