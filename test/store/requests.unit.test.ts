/** The store's one test for a failed condition and its one optimistic retry, driven by plain functions. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { Conflict, NotFound } from '../../shared/errors.ts';
import { isConditionFailed, OPTIMISTIC_ATTEMPTS, writeWithOptimisticRetry } from '../../shared/store/requests.ts';
import { cancelledTransaction } from '../support/dynamodb-faults.ts';

const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

describe('isConditionFailed', () => {
  it.each([
    ['a single write whose condition failed', conditionFailed(), true],
    ['a transaction with one failed condition', cancelledTransaction('None', 'ConditionalCheckFailed'), true],
    ['a transaction cancelled by a conflict only', cancelledTransaction('TransactionConflict', 'None'), false],
    ['a transaction cancelled for validation', cancelledTransaction('ValidationError'), false],
    ['any other error', new Error('boom'), false],
    ['a value that is not an error', 'ConditionalCheckFailedException', false],
  ])('tells %s', (_, error, expected) => {
    expect(isConditionFailed(error)).toBe(expected);
  });

  it('recognises the error by name, as another module instance of the SDK throws other classes', () => {
    const foreign = Object.assign(new Error('failed'), { name: 'ConditionalCheckFailedException' });
    expect(isConditionFailed(foreign)).toBe(true);
  });
});

/** A record whose reads and writes are scripted: each write fails with the next error given, then succeeds. */
function scriptedRecord(failures: unknown[], { goneAfterReads = Infinity } = {}) {
  let reads = 0;
  let writes = 0;
  return {
    get reads() {
      return reads;
    },
    read: async () => {
      reads++;
      if (reads > goneAfterReads) throw new NotFound('thing not found or not linked to this api key');
      return { revision: reads };
    },
    write: async (current: { revision: number }) => {
      const failure = failures[writes++];
      if (failure) throw failure;
      return `written at revision ${current.revision}`;
    },
  };
}

describe('writeWithOptimisticRetry', () => {
  it('reads again and writes on the fresh read when a concurrent change failed the condition', async () => {
    // Prepare
    const record = scriptedRecord([cancelledTransaction('ConditionalCheckFailed'), conditionFailed()]);
    // Act
    const result = await writeWithOptimisticRetry({ ...record, busyMessage: 'busy' });
    // Assess
    expect(result).toBe('written at revision 3');
  });

  it("answers the read's NotFound when the record was deleted between attempts", async () => {
    const record = scriptedRecord([conditionFailed()], { goneAfterReads: 1 });
    await expect(writeWithOptimisticRetry({ ...record, busyMessage: 'busy' })).rejects.toMatchObject({ status: 404 });
  });

  it('answers the refusal at once for a condition no fresh read can cure', async () => {
    // Prepare
    const record = scriptedRecord([cancelledTransaction('None', 'None', 'ConditionalCheckFailed')]);
    // Act
    const edit = writeWithOptimisticRetry({ ...record, refuse: () => new Conflict('name already exists'), busyMessage: 'busy' });
    // Assess
    await expect(edit).rejects.toMatchObject({ status: 409, message: 'name already exists' });
    expect(record.reads).toBe(1);
  });

  it('answers 409 with the busy message when the record is still there after every attempt', async () => {
    // Prepare
    const record = scriptedRecord(Array.from({ length: OPTIMISTIC_ATTEMPTS }, () => conditionFailed()));
    // Act
    const edit = writeWithOptimisticRetry({ ...record, busyMessage: 'thing is being changed by another request, try again' });
    // Assess
    await expect(edit).rejects.toMatchObject({ status: 409, message: 'thing is being changed by another request, try again' });
    expect(record.reads).toBe(OPTIMISTIC_ATTEMPTS + 1);
  });

  it('answers NotFound rather than 409 when the last attempt lost to a delete', async () => {
    const record = scriptedRecord(
      Array.from({ length: OPTIMISTIC_ATTEMPTS }, () => conditionFailed()),
      { goneAfterReads: OPTIMISTIC_ATTEMPTS },
    );
    await expect(writeWithOptimisticRetry({ ...record, busyMessage: 'busy' })).rejects.toMatchObject({ status: 404 });
  });

  it('retries a transaction cancelled by a conflicting transaction', async () => {
    const record = scriptedRecord([cancelledTransaction('TransactionConflict')]);
    expect(await writeWithOptimisticRetry({ ...record, busyMessage: 'busy' })).toBe('written at revision 2');
  });

  it('lets any other failure through unchanged, without another read', async () => {
    // Prepare
    const failure = cancelledTransaction('ValidationError');
    const record = scriptedRecord([failure]);
    // Act
    const edit = writeWithOptimisticRetry({ ...record, busyMessage: 'busy' });
    // Assess
    await expect(edit).rejects.toBe(failure);
    expect(record.reads).toBe(1);
  });
});
