/**
 * DynamoDB cancels one of two transactions racing for the same item with TransactionConflict
 * (DynamoDB Local serialises them instead), so the store's retry is checked against a mocked client.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { newOperatorFields } from '../../shared/domain/operator.ts';
import { addOperator, editOperator } from '../../shared/store/operators.ts';
import { OPTIMISTIC_ATTEMPTS } from '../../shared/store/requests.ts';
import { cancelledTransaction } from '../support/dynamodb-faults.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
// the worker's next files share this class (vitest.config.ts, isolate: false)
afterAll(() => dynamo.restore());
afterEach(() => dynamo.reset());

const fields = newOperatorFields({ fullname: 'Thabo Mokoena', idNumber: '1', tagId: 'T-1' });
/** The operator as stored: under the spec's names. */
const storedOperator = { fullname: 'Thabo Mokoena', id_number: '1', tag_id: 'T-1', operator_uid: 5, user_uid: 7 };

describe('operator transactions', () => {
  it('tries an add again after a TransactionConflict and then writes it', async () => {
    // Prepare
    dynamo.on(UpdateCommand).resolves({ Attributes: { value: 41 } });
    dynamo.on(TransactWriteCommand).rejectsOnce(cancelledTransaction('None', 'TransactionConflict')).resolves({});
    // Act
    const operator = await addOperator(7, fields);
    // Assess
    expect(operator).toMatchObject({ operatorUid: 41, userUid: 7, tagId: 'T-1' });
    expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('answers 409 "tag_id already exists" once the retried claim finds the tag taken', async () => {
    dynamo.on(UpdateCommand).resolves({ Attributes: { value: 42 } });
    dynamo
      .on(TransactWriteCommand)
      .rejectsOnce(cancelledTransaction('TransactionConflict', 'None'))
      .rejects(cancelledTransaction('None', 'ConditionalCheckFailed'));
    await expect(addOperator(7, fields)).rejects.toMatchObject({ status: 409, message: 'tag_id already exists' });
  });

  it('re-reads the operator when its read went stale, and gives up with a 409 when it is still there after every round', async () => {
    // Prepare
    dynamo.on(GetCommand).resolves({ Item: storedOperator });
    dynamo.on(TransactWriteCommand).rejects(cancelledTransaction('ConditionalCheckFailed', 'None', 'None'));
    // Act
    const edit = editOperator(7, 5, { tagId: 'T-2' });
    // Assess
    await expect(edit).rejects.toMatchObject({ status: 409, message: 'operator is being changed by another request, try again' });
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(OPTIMISTIC_ATTEMPTS + 1);
  });

  it('lets any other failure through unchanged', async () => {
    dynamo.on(GetCommand).resolves({ Item: storedOperator });
    dynamo.on(TransactWriteCommand).rejects(cancelledTransaction('ValidationError'));
    await expect(editOperator(7, 5, { fullname: 'X' })).rejects.toBeInstanceOf(TransactionCanceledException);
  });
});
