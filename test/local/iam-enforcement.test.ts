import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { handlerPath } from '../../functions/registry.ts';
import { enforceIam, runAs, stopEnforcingIam } from '../../local/iam/enforcement.ts';
import type { Principals } from '../../local/iam/principals.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { type IsolatedEmulator, startIsolatedEmulator } from '../support/isolated-emulator.ts';

/** The policies the local stack enforces: synthesized once by the run's global setup (local/iam/local-iam.ts). */
const enforced = (): Principals => JSON.parse(readFileSync(process.env.LOCAL_IAM_POLICIES as string, 'utf8')).principals;

const GET_VEHICLES = handlerPath('getVehicles');

/** The policies with every statement that grants `action` to `key` taken out. */
function without(principals: Principals, key: string, action: string): Principals {
  const principal = principals[key];
  if (!principal) throw new Error(`no principal ${key}`);
  const grants = (statement: { Action?: string | string[] }) => [statement.Action ?? []].flat().includes(action);
  if (!principal.statements.some(grants)) throw new Error(`${key} is not granted ${action}: nothing to take out`);
  return { ...principals, [key]: { ...principal, statements: principal.statements.filter((statement) => !grants(statement)) } };
}

describe('a handler run through the local stack', () => {
  let user: TestUser;
  let withoutRateBuckets: IsolatedEmulator;
  let asSynthesized: IsolatedEmulator;

  beforeAll(async () => {
    user = await givenUser();
    await givenVehicle(user);
    const file = join(inject('iamCallsDir'), `without-update-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ context: {}, principals: without(enforced(), GET_VEHICLES, 'dynamodb:UpdateItem') }));
    [withoutRateBuckets, asSynthesized] = await Promise.all([
      // Its refusals are this test's doing, not the code's: they stay out of the run's record of calls.
      startIsolatedEmulator({ LOCAL_IAM_POLICIES: file, LOCAL_IAM_CALLS_DIR: '' }),
      startIsolatedEmulator({ LOCAL_IAM_POLICIES: process.env.LOCAL_IAM_POLICIES as string }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([withoutRateBuckets?.stop(), asSynthesized?.stop()]);
  });

  it('fails with internal error when its role lacks an action its code calls', async () => {
    // Act: the rate limiter's UpdateItem is the first write of every request
    const res = await withoutRateBuckets.api.get('getVehicles', { api_key: user.key });
    // Assess
    expect(res).toBeError(500, 'internal error');
  });

  it('answers once the grant is back', async () => {
    // Act
    const res = await asSynthesized.api.get('getVehicles', { api_key: user.key });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.cnt).toBe(1);
  });
});

describe('an SDK call made as a function', () => {
  const callsDir = process.env.LOCAL_IAM_CALLS_DIR;
  beforeAll(() => {
    // The refusals asked for here are not the code's: they stay out of the run's record of calls.
    delete process.env.LOCAL_IAM_CALLS_DIR;
    enforceIam(enforced());
  });
  afterAll(() => {
    stopEnforcingIam();
    process.env.LOCAL_IAM_CALLS_DIR = callsDir;
  });

  const rateBucket = keys.rateBucket('iam-enforcement-test');
  const spend = () =>
    dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rateBucket,
        UpdateExpression: 'SET tokens = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );

  it('is refused the way AWS refuses it, naming the role, the function, the action and the resource', async () => {
    // Act
    const error = await runAs(GET_VEHICLES, () =>
      dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.user(424242),
          UpdateExpression: 'SET a = :a',
          ExpressionAttributeValues: { ':a': 1 },
        }),
      ),
    ).catch((refusal: unknown) => refusal);
    // Assess
    const role = enforced()[GET_VEHICLES]?.roleName;
    expect(error).toMatchObject({
      name: 'AccessDeniedException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
      message:
        `User: arn:aws:sts::000000000000:assumed-role/${role}/getVehicles is not authorized to perform: dynamodb:UpdateItem on resource: ` +
        `arn:aws:dynamodb:us-east-1:000000000000:table/${tableName()} ` +
        'because no identity-based policy allows the dynamodb:UpdateItem action',
    });
  });

  it('honours the LeadingKeys condition: a read function may spend its rate bucket and write nothing else', async () => {
    // Act
    const spent = await runAs(GET_VEHICLES, spend);
    // Assess
    expect(spent.$metadata.httpStatusCode).toBe(200);
  });

  it('is checked for each function apart: a device function may not spend an api key bucket', async () => {
    // Act
    const error = await runAs(handlerPath('osmandPositions'), spend).catch((refusal: Error) => refusal);
    // Assess
    expect(error).toMatchObject({ name: 'AccessDeniedException' });
  });

  it('is not checked outside a function: the tests and the seed write as the operator', async () => {
    // Act
    const read = await dynamo().send(new GetCommand({ TableName: tableName(), Key: rateBucket }));
    // Assess
    expect(read.$metadata.httpStatusCode).toBe(200);
  });
});
