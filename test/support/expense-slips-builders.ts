/** Expense types and slips made through the same store calls the operations use. */
import type { ExpenseSlip, NewExpenseSlip, NewFillSlip } from '../../shared/domain/expense-slip.ts';
import type { FuelFill } from '../../shared/domain/fuel-fill.ts';
import type { Vehicle } from '../../shared/domain/vehicle.ts';
import { nextId } from '../../shared/store/counters.ts';
import { addExpenseSlip, addFillSlip } from '../../shared/store/expense-slips.ts';
import { addExpenseType } from '../../shared/store/expense-types.ts';
import { commitDetected, type TestUser } from './builders.ts';

export async function givenExpenseType(user: TestUser, name = 'Tolls'): Promise<number> {
  return (await addExpenseType(user.userUid, name)).type;
}

export async function givenSlip(user: TestUser, vehicle: Vehicle, overrides: Partial<NewExpenseSlip> = {}): Promise<ExpenseSlip> {
  return addExpenseSlip(user.userUid, {
    vehicleUid: vehicle.vehicleUid,
    type: 2,
    amount: '850.40',
    qty: '42.500',
    slipNumber: 'INV-1001',
    eventDatetime: '2026-11-01 07:30:00',
    comment: 'Engen Rivonia',
    ...overrides,
  });
}

/** A detected fuel fill on the vehicle, as the positions pipeline would store it; answers its event_uid. */
export async function givenFuelFill(vehicle: Vehicle, overrides: Partial<FuelFill> = {}): Promise<number> {
  const eventUid = await nextId('fuel-fill');
  const fill: FuelFill = {
    eventUid,
    vehicleUid: vehicle.vehicleUid,
    at: '2026-11-01T07:12:44.000Z',
    latitude: -26.0992,
    longitude: 28.1263,
    location: 'Depot',
    levelBefore: 20,
    levelAfter: 80,
    fillQty: 60,
    odometerKm: 1200,
    engineHours: 80,
    operatorUid: null,
    operatorName: null,
    tripUid: null,
    distanceKm: null,
    durationS: null,
    fuelUsed: null,
    slipUid: null,
    ...overrides,
  };
  await commitDetected(vehicle.vehicleUid, { newFills: [fill] });
  return eventUid;
}

export async function givenFillSlip(vehicle: Vehicle, overrides: Partial<NewFillSlip> = {}): Promise<ExpenseSlip> {
  return addFillSlip({
    eventUid: await givenFuelFill(vehicle),
    vehicleUid: vehicle.vehicleUid,
    qty: '60.000',
    amount: '1320.00',
    slipNumber: 'F-1',
    eventDatetime: '2026-11-01 09:12:44',
    ...overrides,
  });
}
