import { describe, expect, it } from 'vitest';
import type { Principal } from '../../local/iam/principals.ts';
import { grantProblems, type RecordedCall } from '../support/grants-used.ts';

const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/fleet';

const aPrincipal = (statements: Principal['statements']): Principal => ({
  key: 'functions/getThing/handler.ts',
  sessionName: 'getThing',
  roleName: 'GetThingRole',
  statements,
  environment: {},
});

const aCall = (action: string, resource = TABLE, decision = 'Allowed'): RecordedCall => ({
  principal: 'functions/getThing/handler.ts',
  action,
  resource,
  decision,
});

describe('comparing the calls of a run with the grants', () => {
  const principal = aPrincipal([
    { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:Query'], Resource: [TABLE, `${TABLE}/index/*`] },
    { Effect: 'Allow', Action: ['xray:PutTraceSegments'], Resource: '*' },
  ]);
  const principals = { [principal.key]: principal };

  it('finds nothing when every data-plane grant was used and every call allowed', () => {
    // Act
    const problems = grantProblems(principals, [aCall('dynamodb:GetItem'), aCall('dynamodb:Query', `${TABLE}/index/byImei`)], []);
    // Assess: X-Ray is not data plane
    expect(problems).toEqual([]);
  });

  it('names a grant no call used, with its resources', () => {
    // Act
    const problems = grantProblems(principals, [aCall('dynamodb:GetItem')], []);
    // Assess
    expect(problems).toEqual([
      `functions/getThing/handler.ts is granted dynamodb:Query on ${TABLE}, ${TABLE}/index/*, which no call of the test run used`,
    ]);
  });

  it('names a call the role refused, even if the code went on', () => {
    // Act
    const problems = grantProblems(
      principals,
      [aCall('dynamodb:GetItem'), aCall('dynamodb:Query', `${TABLE}/index/x`), aCall('dynamodb:PutItem', TABLE, 'ImplicitlyDenied')],
      [],
    );
    // Assess
    expect(problems).toEqual([`functions/getThing/handler.ts called dynamodb:PutItem on ${TABLE}, which its role does not allow`]);
  });

  it('accepts an unused grant an exception explains', () => {
    // Act
    const problems = grantProblems(
      principals,
      [aCall('dynamodb:GetItem')],
      [{ principal: '*', action: 'dynamodb:Query', reason: 'only in AWS' }],
    );
    // Assess
    expect(problems).toEqual([]);
  });
});
