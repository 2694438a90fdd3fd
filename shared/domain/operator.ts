/**
 * Operators (drivers): owned by one user; tag_id is unique across all operators of all users.
 * The fields keep the spec's names: they are the parameters, the stored attributes and the record,
 * so one name per field runs from the request to the table and back.
 */
import * as v from 'valibot';
import { dateTimeField, flagField, integerField, optionalFlag, optionalInteger, optionalText, requiredDate } from '../contracts/primitives.ts';

/** Text limits the spec leaves open: long enough for real names, addresses and tag formats. */
export const OPERATOR_LIMITS = {
  fullname: 200,
  id_number: 50,
  tag_id: 50,
  mobile_number: 50,
  home_number: 50,
  employee_number: 50,
  current_points: 20,
  home_address: 500,
  next_of_kin: 200,
  next_of_kin_contact_number: 50,
  email_address: 254,
} as const;

export const EXPIRY_FIELDS = [
  'driver_licence_expiry_datetime',
  'pdp_expiry_datetime',
  'dgp_expiry_datetime',
  'mc_expiry_datetime',
] as const;

/** Every string field; expiries are stored as the yyyy-mm-dd they were given. */
export const OPERATOR_TEXT_FIELDS = [...(Object.keys(OPERATOR_LIMITS) as (keyof typeof OPERATOR_LIMITS)[]), ...EXPIRY_FIELDS];

type TextField = (typeof OPERATOR_TEXT_FIELDS)[number];

export type OperatorFields = Record<TextField, string> & { default_trip_type: number; active_flag: number };

export interface Operator extends OperatorFields {
  operator_uid: number;
  /** the owner: an operator is visible to this user only */
  user_uid: number;
}

/** What an edit sends: omitted fields are undefined and keep their stored value. */
export type OperatorChanges = { [Field in keyof OperatorFields]?: OperatorFields[Field] | undefined };

const NO_EXPIRY = '2001-01-01';

const OPERATOR_DEFAULTS: Omit<OperatorFields, 'fullname' | 'id_number' | 'tag_id'> = {
  default_trip_type: 0,
  active_flag: 1,
  mobile_number: '',
  home_number: '',
  employee_number: '',
  current_points: '',
  home_address: '',
  next_of_kin: '',
  next_of_kin_contact_number: '',
  email_address: '',
  driver_licence_expiry_datetime: NO_EXPIRY,
  pdp_expiry_datetime: NO_EXPIRY,
  dgp_expiry_datetime: NO_EXPIRY,
  mc_expiry_datetime: NO_EXPIRY,
};

/** A new operator: the required fields plus whatever was given, the spec's defaults for the rest. */
export function newOperatorFields(given: OperatorChanges & Pick<OperatorFields, 'fullname' | 'id_number' | 'tag_id'>): OperatorFields {
  const present = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  return { ...OPERATOR_DEFAULTS, ...present, fullname: given.fullname, id_number: given.id_number, tag_id: given.tag_id };
}

const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const text = (name: keyof typeof OPERATOR_LIMITS) => optionalText(name, OPERATOR_LIMITS[name]);

/** Edits may leave fullname, id_number and tag_id out, never blank them. */
export const nonBlankText = (name: 'fullname' | 'id_number' | 'tag_id') =>
  v.pipe(text(name), v.check((value) => value !== '', `${name} may not be blank`));

const EXPIRY_FORMAT = 'expiry dates must be yyyy-mm-dd';

/** An expiry day; the record reads it back as `yyyy-mm-dd 00:00:00`, so a record sent back to editOperator is taken too. */
const expiryDate = v.optional(
  v.pipe(
    v.unknown(),
    v.transform((value) => (typeof value === 'string' ? value.trim().replace(/ 00:00:00$/, '') : value)),
    requiredDate(EXPIRY_FORMAT),
  ),
);

/**
 * The optional parameters addOperator and editOperator share, in the spec's order. Absent stays
 * undefined: addOperator then applies the defaults, editOperator keeps the stored value.
 */
export const operatorDetailEntries = {
  default_trip_type: v.pipe(
    optionalInteger('default_trip_type', 'default_trip_type must be an integer of 0 or more'),
    v.check((type) => type === undefined || type >= 0, 'default_trip_type must be an integer of 0 or more'),
  ),
  active_flag: optionalFlag('active_flag'),
  mobile_number: text('mobile_number'),
  home_number: text('home_number'),
  employee_number: text('employee_number'),
  current_points: text('current_points'),
  home_address: text('home_address'),
  next_of_kin: text('next_of_kin'),
  next_of_kin_contact_number: text('next_of_kin_contact_number'),
  email_address: v.pipe(
    text('email_address'),
    v.check((address) => !address || EMAIL_ADDRESS.test(address), 'email_address is not a valid email address'),
  ),
  driver_licence_expiry_datetime: expiryDate,
  pdp_expiry_datetime: expiryDate,
  dgp_expiry_datetime: expiryDate,
  mc_expiry_datetime: expiryDate,
};

const expiry = (date: string): string => `${date} 00:00:00`;

export const OperatorRecord = v.object({
  operator_uid: integerField,
  id_number: v.string(),
  fullname: v.string(),
  tag_id: v.string(),
  default_trip_type: integerField,
  mobile_number: v.string(),
  home_number: v.string(),
  driver_licence_expiry_datetime: dateTimeField,
  pdp_expiry_datetime: dateTimeField,
  dgp_expiry_datetime: dateTimeField,
  mc_expiry_datetime: dateTimeField,
  employee_number: v.string(),
  current_points: v.string(),
  home_address: v.string(),
  next_of_kin: v.string(),
  next_of_kin_contact_number: v.string(),
  active_flag: flagField,
  email_address: v.string(),
});

/** The spec's operator record, in the spec's field order. */
export function toOperatorRecord(operator: Operator): v.InferOutput<typeof OperatorRecord> {
  return {
    operator_uid: operator.operator_uid,
    id_number: operator.id_number,
    fullname: operator.fullname,
    tag_id: operator.tag_id,
    default_trip_type: operator.default_trip_type,
    mobile_number: operator.mobile_number,
    home_number: operator.home_number,
    driver_licence_expiry_datetime: expiry(operator.driver_licence_expiry_datetime),
    pdp_expiry_datetime: expiry(operator.pdp_expiry_datetime),
    dgp_expiry_datetime: expiry(operator.dgp_expiry_datetime),
    mc_expiry_datetime: expiry(operator.mc_expiry_datetime),
    employee_number: operator.employee_number,
    current_points: operator.current_points,
    home_address: operator.home_address,
    next_of_kin: operator.next_of_kin,
    next_of_kin_contact_number: operator.next_of_kin_contact_number,
    active_flag: operator.active_flag,
    email_address: operator.email_address,
  };
}
