/**
 * Operators (drivers): owned by one user; tag_id is unique across all operators of all users.
 * The fields keep the spec's names: they are the parameters, the stored attributes and the record,
 * so one name per field runs from the request to the table and back.
 */

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
