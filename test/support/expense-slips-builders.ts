/** Expense types and slips made through the same store calls the operations use. */
import type { ExpenseSlip, NewExpenseSlip, NewFillSlip } from '../../shared/domain/expense-slip.ts';
import type { Vehicle } from '../../shared/domain/vehicle.ts';
import { nextId } from '../../shared/store/counters.ts';
import { addExpenseSlip, addFillSlip } from '../../shared/store/expense-slips.ts';
import { addExpenseType } from '../../shared/store/expense-types.ts';
import type { TestUser } from './builders.ts';

export async function givenExpenseType(user: TestUser, name = 'Tolls'): Promise<number> {
  return (await addExpenseType(user.userUid, name)).type;
}

export async function givenSlip(user: TestUser, vehicle: Vehicle, overrides: Partial<NewExpenseSlip> = {}): Promise<ExpenseSlip> {
  return addExpenseSlip(user.userUid, {
    vehicleUid: vehicle.vehicleUid, type: 2, amount: '850.40', qty: '42.500', slipNumber: 'INV-1001',
    eventDatetime: '2026-11-01 07:30:00', comment: 'Engen Rivonia', ...overrides,
  });
}

/** A fuel-fill id nobody else uses; the fill itself is not needed to claim its slip. */
export const aFillEventUid = (): Promise<number> => nextId('test-fuel-fill');

export async function givenFillSlip(vehicle: Vehicle, overrides: Partial<NewFillSlip> = {}): Promise<ExpenseSlip> {
  return addFillSlip({
    eventUid: await aFillEventUid(), vehicleUid: vehicle.vehicleUid, qty: '60.000', amount: '1320.00', slipNumber: 'F-1',
    eventDatetime: '2026-11-01 09:12:44', ...overrides,
  });
}
