import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { notIntegers } from '../support/bad-values.ts';
import { givenUser } from '../support/builders.ts';
import { anOperator, givenOperator, operatorRecord } from '../support/operators-builders.ts';

const NOT_FOUND = 'operator not found or not linked to this api key';

describe('deleteOperator', () => {
  it('deletes the operator for good and answers its operator_uid', async () => {
    // Prepare
    const user = await givenUser();
    const { operatorUid } = await givenOperator(user);
    const kept = await givenOperator(user);
    // Act
    const res = await callOperation('deleteOperator', { api_key: user.key, operator_uid: operatorUid });
    // Assess
    expect(res.body).toEqual({ version: '1', result: 'success', error_msg: '', operator_uid: operatorUid });
    expect(await callOperation('getOperator', { api_key: user.key, operator_uid: operatorUid })).toBeError(404, NOT_FOUND);
    const listed = await callOperation('getOperators', { api_key: user.key });
    expect(listed.body.operators.map((operator: { operator_uid: number }) => operator.operator_uid)).toEqual([kept.operatorUid]);
  });

  it('frees the tag_id for another user at once', async () => {
    // Prepare
    const owner = await givenUser();
    const { operatorUid, tagId } = await givenOperator(owner);
    const other = await givenUser();
    // Act
    await callOperation('deleteOperator', { api_key: owner.key, operator_uid: operatorUid });
    const res = await callOperation('addOperator', { api_key: other.key, ...anOperator({ tag_id: tagId }) });
    // Assess
    expect(res).toBeSuccess();
    expect((await operatorRecord(other, res.body.operator_uid)).tag_id).toBe(tagId);
  });

  it('accepts a JSON body', async () => {
    const user = await givenUser();
    const { operatorUid } = await givenOperator(user);
    expect(await callOperation('deleteOperator', { api_key: user.key, operator_uid: operatorUid }, { json: true })).toBeSuccess();
  });

  it('does not find an operator deleted before, nor one that never existed', async () => {
    const user = await givenUser();
    const { operatorUid } = await givenOperator(user);
    await callOperation('deleteOperator', { api_key: user.key, operator_uid: operatorUid });
    for (const operator_uid of [operatorUid, 999999999]) {
      expect(await callOperation('deleteOperator', { api_key: user.key, operator_uid })).toBeError(404, NOT_FOUND);
    }
  });

  it('deletes once when two deletes race', async () => {
    const user = await givenUser();
    const { operatorUid } = await givenOperator(user);
    const results = await Promise.all([1, 2].map(() => callOperation('deleteOperator', { api_key: user.key, operator_uid: operatorUid })));
    expect(results.map((res) => res.status).sort()).toEqual([200, 404]);
  });

  it("does not find another user's operator, and leaves it and its tag in place", async () => {
    // Prepare
    const owner = await givenUser();
    const { operatorUid, tagId } = await givenOperator(owner);
    const before = await operatorRecord(owner, operatorUid);
    const other = await givenUser();
    // Act
    const res = await callOperation('deleteOperator', { api_key: other.key, operator_uid: operatorUid });
    // Assess
    expect(res).toBeError(404, NOT_FOUND);
    expect(await operatorRecord(owner, operatorUid)).toEqual(before);
    expect(await callOperation('addOperator', { api_key: other.key, ...anOperator({ tag_id: tagId }) })).toBeError(
      409,
      'tag_id already exists',
    );
  });

  it.each(notIntegers)('says "operator_uid is required and must be an integer" when it is %s', async (_case, operator_uid) => {
    const user = await givenUser();
    expect(await callOperation('deleteOperator', { api_key: user.key, operator_uid })).toBeError(
      400,
      'operator_uid is required and must be an integer',
    );
  });

  it('refuses a GET with the method message', async () => {
    const user = await givenUser();
    const { operatorUid } = await givenOperator(user);
    expect(await api.get('deleteOperator', { api_key: user.key, operator_uid: operatorUid })).toBeError(
      405,
      'method not allowed, use POST',
    );
    expect(await operatorRecord(user, operatorUid)).toMatchObject({ operator_uid: operatorUid });
  });
});
