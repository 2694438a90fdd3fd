import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { givenOperator, operatorRecord } from '../support/operators-builders.ts';

describe('getOperators', () => {
  it('lists every operator of the user as full records, by operator_uid, with cnt', async () => {
    // Prepare
    const user = await givenUser();
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await givenOperator(user, { fullname: `Driver ${i}` }));
    // Act
    const res = await callOperation('getOperators', { api_key: user.key });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.cnt).toBe(3);
    expect(res.body.operators).toEqual(await Promise.all(created.map(({ operatorUid }) => operatorRecord(user, operatorUid))));
    expect(res.body.operators.map((operator: { fullname: string }) => operator.fullname)).toEqual(['Driver 0', 'Driver 1', 'Driver 2']);
  });

  it('gives integers for operator_uid, default_trip_type and active_flag and strings for the rest', async () => {
    // Prepare
    const user = await givenUser();
    await givenOperator(user);
    // Act
    const [operator] = (await callOperation('getOperators', { api_key: user.key })).body.operators;
    // Assess
    for (const [name, value] of Object.entries(operator ?? {})) {
      expect(typeof value, name).toBe(['operator_uid', 'default_trip_type', 'active_flag'].includes(name) ? 'number' : 'string');
    }
    expect(Object.keys(operator ?? {})).toHaveLength(18);
  });

  it('lists inactive operators too', async () => {
    const user = await givenUser();
    await givenOperator(user, { active_flag: 0 });
    expect((await callOperation('getOperators', { api_key: user.key })).body.operators[0]?.active_flag).toBe(0);
  });

  it('answers an empty list to a user without operators', async () => {
    const user = await givenUser();
    const res = await callOperation('getOperators', { api_key: user.key });
    expect(res.body).toEqual({ version: '1', result: 'success', error_msg: '', cnt: 0, operators: [] });
  });

  it("never shows another user's operators", async () => {
    // Prepare
    const owner = await givenUser();
    await givenOperator(owner);
    const other = await givenUser();
    const own = await givenOperator(other);
    // Act
    const res = await callOperation('getOperators', { api_key: other.key });
    // Assess
    expect(res.body.cnt).toBe(1);
    expect(res.body.operators[0]?.operator_uid).toBe(own.operatorUid);
  });

  it('refuses a POST with the method message', async () => {
    const user = await givenUser();
    expect(await api.post('getOperators', { api_key: user.key })).toBeError(405, 'method not allowed, use GET');
  });

  it('refuses a request without a key', async () => {
    expect(await callOperation('getOperators')).toBeError(401, 'api key missing');
  });
});
