import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { lambdaContext } from '../../local/api-gateway-event.ts';
import { handlerPath, operations, streamConsumers } from '../../shared/operations.ts';
import { givenUser } from '../support/builders.ts';
import { withApiKey } from '../../scripts/invoke.ts';

/** A URL, not a template path: vite would try (and fail) to resolve a variable import path at transform time. */
const handlerUrl = (name: string): string => new URL(`../../${handlerPath(name)}`, import.meta.url).href;

describe.each(operations.map((operation) => [operation.name, operation] as const))('events/%s.json', (name, operation) => {
  it('is a REST proxy event for its operation that its handler answers in the envelope', async () => {
    // Prepare
    const event = JSON.parse(readFileSync(`events/${name}.json`, 'utf8')) as APIGatewayProxyEvent;
    const user = await givenUser();
    const { handler } = (await import(handlerUrl(name))) as {
      handler: (e: APIGatewayProxyEvent, c: Context) => Promise<APIGatewayProxyResult>;
    };
    // Act
    const result = await handler(withApiKey(event, user.key), lambdaContext(name, 'event-check'));
    // Assess
    expect(event).toMatchObject({ resource: '/api/{operation}', path: `/api/${name}`, httpMethod: operation.method, pathParameters: { operation: name } });
    expect(result.statusCode).toBeLessThan(500);
    expect(JSON.parse(result.body)).toMatchObject({ version: '1', result: expect.stringMatching(/^(success|error)$/) });
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
    expect(event.Records[0]).toMatchObject({ eventSource: 'aws:kinesis', kinesis: { data: expect.any(String), sequenceNumber: expect.any(String) } });
    expect(result).toEqual({ batchItemFailures: [] });
  });
});
