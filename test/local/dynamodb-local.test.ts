import { afterEach, describe, expect, it } from 'vitest';
import { JAVA_MISSING, startDynamoDbLocal } from '../../local/dynamodb-local.ts';
import { freePort } from '../../local/ports.ts';

const path = process.env.PATH;
afterEach(() => {
  process.env.PATH = path;
});

describe('startDynamoDbLocal', () => {
  it('says in one line what to install when Java is missing', async () => {
    process.env.PATH = '/nonexistent';
    await expect(startDynamoDbLocal({ port: await freePort() })).rejects.toThrow(JAVA_MISSING);
    expect(JAVA_MISSING).not.toContain('\n');
  });

  it('explains a port that is already taken', async () => {
    const taken = Number(new URL(process.env.DYNAMODB_ENDPOINT as string).port);
    await expect(startDynamoDbLocal({ port: taken })).rejects.toThrow(`DynamoDB Local cannot start: port ${taken} is already in use`);
  });
});
