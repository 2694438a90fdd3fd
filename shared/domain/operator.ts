/**
 * Operators (drivers): owned by one user; tag_id is unique across all operators of all users.
 * The parameters, the stored attributes and the record all use the spec's names; the domain's are camelCase,
 * mapped here from the parameters and to the record, and by the store's field map to the table.
 */
import * as v from 'valibot';
import { dateTimeText, flag, integer } from '../responses.ts';
import { optionalFlag, optionalInteger, optionalText, requiredDate } from '../validation.ts';

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

export interface OperatorFields {
  fullname: string;
  idNumber: string;
  tagId: string;
  defaultTripType: number;
  /** 1 active, 0 not */
  activeFlag: number;
  mobileNumber: string;
  homeNumber: string;
  employeeNumber: string;
  currentPoints: string;
  homeAddress: string;
  nextOfKin: string;
  nextOfKinContactNumber: string;
  emailAddress: string;
  /** expiries are the yyyy-mm-dd they were given */
  driverLicenceExpiry: string;
  pdpExpiry: string;
  dgpExpiry: string;
  mcExpiry: string;
}

export interface Operator extends OperatorFields {
  operatorUid: number;
  /** the owner: an operator is visible to this user only */
  userUid: number;
}

/** What an edit sends: omitted fields are undefined and keep their stored value. */
export type OperatorChanges = { [Field in keyof OperatorFields]?: OperatorFields[Field] | undefined };

const NO_EXPIRY = '2001-01-01';

const OPERATOR_DEFAULTS: Omit<OperatorFields, 'fullname' | 'idNumber' | 'tagId'> = {
  defaultTripType: 0,
  activeFlag: 1,
  mobileNumber: '',
  homeNumber: '',
  employeeNumber: '',
  currentPoints: '',
  homeAddress: '',
  nextOfKin: '',
  nextOfKinContactNumber: '',
  emailAddress: '',
  driverLicenceExpiry: NO_EXPIRY,
  pdpExpiry: NO_EXPIRY,
  dgpExpiry: NO_EXPIRY,
  mcExpiry: NO_EXPIRY,
};

/** A new operator: the required fields plus whatever was given, the spec's defaults for the rest. */
export function newOperatorFields(given: OperatorChanges & Pick<OperatorFields, 'fullname' | 'idNumber' | 'tagId'>): OperatorFields {
  const present = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  return { ...OPERATOR_DEFAULTS, ...present, fullname: given.fullname, idNumber: given.idNumber, tagId: given.tagId };
}

/** The parameters addOperator and editOperator take (absent ones undefined). */
export type OperatorParams = { [Name in keyof typeof OPERATOR_LIMITS | (typeof EXPIRY_FIELDS)[number]]?: string | undefined } & {
  default_trip_type?: number | undefined;
  active_flag?: number | undefined;
};

/** The fields the parameters set; an absent parameter stays undefined (a default on add, kept on edit). */
export function operatorChanges(params: OperatorParams): OperatorChanges {
  return {
    fullname: params.fullname,
    idNumber: params.id_number,
    tagId: params.tag_id,
    defaultTripType: params.default_trip_type,
    activeFlag: params.active_flag,
    mobileNumber: params.mobile_number,
    homeNumber: params.home_number,
    employeeNumber: params.employee_number,
    currentPoints: params.current_points,
    homeAddress: params.home_address,
    nextOfKin: params.next_of_kin,
    nextOfKinContactNumber: params.next_of_kin_contact_number,
    emailAddress: params.email_address,
    driverLicenceExpiry: params.driver_licence_expiry_datetime,
    pdpExpiry: params.pdp_expiry_datetime,
    dgpExpiry: params.dgp_expiry_datetime,
    mcExpiry: params.mc_expiry_datetime,
  };
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
  operator_uid: integer,
  id_number: v.string(),
  fullname: v.string(),
  tag_id: v.string(),
  default_trip_type: integer,
  mobile_number: v.string(),
  home_number: v.string(),
  driver_licence_expiry_datetime: dateTimeText,
  pdp_expiry_datetime: dateTimeText,
  dgp_expiry_datetime: dateTimeText,
  mc_expiry_datetime: dateTimeText,
  employee_number: v.string(),
  current_points: v.string(),
  home_address: v.string(),
  next_of_kin: v.string(),
  next_of_kin_contact_number: v.string(),
  active_flag: flag,
  email_address: v.string(),
});

/** The spec's operator record, in the spec's field order. */
export function toOperatorRecord(operator: Operator): v.InferOutput<typeof OperatorRecord> {
  return {
    operator_uid: operator.operatorUid,
    id_number: operator.idNumber,
    fullname: operator.fullname,
    tag_id: operator.tagId,
    default_trip_type: operator.defaultTripType,
    mobile_number: operator.mobileNumber,
    home_number: operator.homeNumber,
    driver_licence_expiry_datetime: expiry(operator.driverLicenceExpiry),
    pdp_expiry_datetime: expiry(operator.pdpExpiry),
    dgp_expiry_datetime: expiry(operator.dgpExpiry),
    mc_expiry_datetime: expiry(operator.mcExpiry),
    employee_number: operator.employeeNumber,
    current_points: operator.currentPoints,
    home_address: operator.homeAddress,
    next_of_kin: operator.nextOfKin,
    next_of_kin_contact_number: operator.nextOfKinContactNumber,
    active_flag: operator.activeFlag,
    email_address: operator.emailAddress,
  };
}
