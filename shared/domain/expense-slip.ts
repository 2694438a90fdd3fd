/** Expense and fuel slips (types 2 and the user's own) and fill slips (type 1, one per fuel fill). */
import { FILL_SLIP_TYPE, FUEL_TYPE } from './expense-type.ts';

export interface ExpenseSlip {
  slipUid: number;
  vehicleUid: number;
  type: number;
  /** the user whose expense type this is; null for Fuel and fill slips, which nobody owns */
  typeOwnerUid: number | null;
  slipNumber: string;
  /** decimal text, never a float */
  qty: string;
  /** decimal text, never a float */
  amount: string;
  /** 'yyyy-mm-dd hh:mm:ss', the user's local time as entered */
  eventDatetime: string;
  comment: string;
  /** the fuel fill a fill slip belongs to; null for other slips */
  eventUid: number | null;
}

/** A slip with its type's current name, read when the slip is read so a rename shows on old slips. */
export interface NamedExpenseSlip extends ExpenseSlip {
  typeName: string;
}

export type NewExpenseSlip = Omit<ExpenseSlip, 'slipUid' | 'typeOwnerUid' | 'eventUid'>;

export type NewFillSlip = Pick<ExpenseSlip, 'vehicleUid' | 'qty' | 'amount' | 'slipNumber' | 'eventDatetime'> & { eventUid: number };

/** What editExpenseSlip may change; undefined keeps the stored value. */
export type SlipChanges = Partial<Pick<ExpenseSlip, 'amount' | 'qty' | 'slipNumber' | 'eventDatetime' | 'comment'>>;

export const SLIP_TYPE_INVALID = 'type is invalid: not 2 or one of your expense types';

/** Type 1 is no expense type a user keeps, so its name is fixed here. */
export const FILL_SLIP_NAME = 'Fuel fill';

/** Types whose name needs no lookup. */
export function builtInTypeName(type: number): string | undefined {
  if (type === FUEL_TYPE.type) return FUEL_TYPE.name;
  if (type === FILL_SLIP_TYPE) return FILL_SLIP_NAME;
  return undefined;
}
