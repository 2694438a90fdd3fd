/** addExpenseType's ids: the store is called in this process, so the shared client's requests can be watched. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo } from '../../shared/store/client.ts';
import { addExpenseType } from '../../shared/store/expense-types.ts';
import { givenUser } from '../support/builders.ts';

/** The counter updates this process sends (requests naming the counter key), whatever other test files do. */
let counterUpdates = 0;
beforeAll(() => {
  dynamo().middlewareStack.add(
    (next) => async (args) => {
      if (JSON.stringify(args.input).includes('COUNTER#expense-type')) counterUpdates++;
      return next(args);
    },
    { step: 'initialize', name: 'countCounterUpdates' },
  );
});
afterAll(() => dynamo().middlewareStack.remove('countCounterUpdates'));

describe('addExpenseType', () => {
  it('draws one type id for a new name', async () => {
    // Prepare
    const user = await givenUser();
    const before = counterUpdates;
    // Act
    await addExpenseType(user.userUid, 'Tolls');
    // Assess
    expect(counterUpdates - before).toBe(1);
  });

  it('refuses a name the user already has (any case) without drawing a type id', async () => {
    // Prepare
    const user = await givenUser();
    await addExpenseType(user.userUid, 'Parking');
    const before = counterUpdates;
    // Act
    const refused = await addExpenseType(user.userUid, 'PARKING').catch((error: Error) => error);
    // Assess
    expect(refused).toMatchObject({ status: 409, message: 'expense type already exists' });
    expect(counterUpdates - before).toBe(0);
  });
});
