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

const aCall = (action: string, resource = TABLE, decision = 'Allowed', leadingKeys?: string[]): RecordedCall => ({
  principal: 'functions/getThing/handler.ts',
  action,
  resource,
  decision,
  ...(leadingKeys ? { leadingKeys } : {}),
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

  describe('with a grant limited to leading keys', () => {
    const writer = aPrincipal([
      { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], Resource: [TABLE] },
      {
        Effect: 'Allow',
        Action: ['dynamodb:UpdateItem'],
        Resource: [TABLE],
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
      },
    ]);
    const writers = { [writer.key]: writer };

    it("credits a rate bucket's update to that grant, and names the table-wide update no other call used", () => {
      // Act
      const problems = grantProblems(writers, [aCall('dynamodb:GetItem'), aCall('dynamodb:UpdateItem', TABLE, 'Allowed', ['RATE#*'])], []);
      // Assess
      expect(problems).toEqual([
        `functions/getThing/handler.ts is granted dynamodb:UpdateItem on ${TABLE}, which no call of the test run used`,
      ]);
    });

    it('credits an update of any other item to the table-wide grant, and names the leading-key grant no call used', () => {
      // Act
      const problems = grantProblems(writers, [aCall('dynamodb:GetItem'), aCall('dynamodb:UpdateItem', TABLE, 'Allowed', ['USER#*'])], []);
      // Assess
      expect(problems).toEqual([
        `functions/getThing/handler.ts is granted dynamodb:UpdateItem on ${TABLE} (leading keys RATE#*), ` +
          'which no call of the test run used',
      ]);
    });

    it('finds nothing when both updates were made', () => {
      // Act
      const problems = grantProblems(
        writers,
        [
          aCall('dynamodb:GetItem'),
          aCall('dynamodb:UpdateItem', TABLE, 'Allowed', ['RATE#*']),
          aCall('dynamodb:UpdateItem', TABLE, 'Allowed', ['USER#*', 'COUNTER']),
        ],
        [],
      );
      // Assess
      expect(problems).toEqual([]);
    });
  });
});
