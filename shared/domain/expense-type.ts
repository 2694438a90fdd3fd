/** Expense types: Fuel (2) is built in for every user; users add, rename and soft-delete their own. */

export interface ExpenseType {
  type: number;
  name: string;
  /** soft-deleted: hidden from lists and new slips, still named on old slips */
  deleted: boolean;
}

export const FUEL_TYPE: ExpenseType = { type: 2, name: 'Fuel', deleted: false };
/** Fill slips (addFuelFillSlip) carry type 1; it is not a type users can pick. */
export const FILL_SLIP_TYPE = 1;
/** user type ids start after the reserved 1 and 2 */
export const FIRST_USER_TYPE_OFFSET = 2;

/** Names compare trimmed and case-insensitively; "Fuel" is taken by type 2 for everyone. */
export const sameExpenseName = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();
export const isReservedExpenseName = (name: string): boolean => sameExpenseName(name, FUEL_TYPE.name);

/** Names are unique per user, compared trimmed and case-insensitively, Fuel included: the 409 of add and editExpenseType. */
export const EXPENSE_TYPE_TAKEN = 'expense type already exists';
