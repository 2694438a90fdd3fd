/** findOperatorByTag serves the positions pipeline (driver names on trips), so it is checked at the store. */
import { describe, expect, it } from 'vitest';
import { newOperatorFields } from '../../shared/domain/operator.ts';
import { addOperator, findOperatorByTag } from '../../shared/store/operators.ts';
import { api } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { aTagId, givenOperator } from '../support/operators-builders.ts';

describe('findOperatorByTag', () => {
  it('finds the operator holding a tag, with its owner, whoever asks', async () => {
    // Prepare
    const user = await givenUser();
    const { operatorUid, tagId } = await givenOperator(user, { fullname: 'Thabo Mokoena' });
    // Act
    const found = await findOperatorByTag(` ${tagId} `);
    // Assess
    expect(found).toMatchObject({ operatorUid, userUid: user.userUid, fullname: 'Thabo Mokoena', tagId });
  });

  it('follows a tag moved by an edit and forgets a deleted operator', async () => {
    // Prepare
    const user = await givenUser();
    const { operatorUid, tagId: oldTag } = await givenOperator(user);
    const newTag = aTagId();
    // Act
    await api.post('editOperator', { api_key: user.key, operator_uid: operatorUid, tag_id: newTag });
    // Assess
    expect(await findOperatorByTag(oldTag)).toBeUndefined();
    expect((await findOperatorByTag(newTag))?.operatorUid).toBe(operatorUid);
    await api.post('deleteOperator', { api_key: user.key, operator_uid: operatorUid });
    expect(await findOperatorByTag(newTag)).toBeUndefined();
  });

  it('finds nothing for a tag no operator holds, and compares case-sensitively', async () => {
    const user = await givenUser();
    const { tagId } = await givenOperator(user);
    expect(await findOperatorByTag(aTagId())).toBeUndefined();
    expect(await findOperatorByTag(tagId.toLowerCase())).toBeUndefined();
  });
});

describe('addOperator', () => {
  it("refuses a tag another operator holds with a 409 that keeps DynamoDB's cancelled transaction as its cause", async () => {
    // Prepare
    const user = await givenUser();
    const { tagId } = await givenOperator(user);
    // Act
    const refused = await addOperator(
      user.userUid,
      newOperatorFields({ fullname: 'Second holder', idNumber: '8001015009087', tagId }),
    ).catch((error: Error) => error);
    // Assess
    expect(refused).toMatchObject({ status: 409, cause: { name: 'TransactionCanceledException' } });
  });
});
