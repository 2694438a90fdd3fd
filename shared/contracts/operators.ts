/** Operators on the wire: the parameters addOperator and editOperator share, and the spec's operator record. */
import * as v from 'valibot';
import { OPERATOR_LIMITS, type Operator } from '../domain/operator.ts';
import {
  dateTimeField,
  described,
  flagField,
  integerField,
  optionalFlag,
  optionalInteger,
  optionalText,
  requiredDate,
  requiredInteger,
} from './primitives.ts';
import { DAY_OR_MIDNIGHT_PATTERN } from './wire.ts';

const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const text = (name: keyof typeof OPERATOR_LIMITS) => optionalText(name, OPERATOR_LIMITS[name]);

/** Edits may leave fullname, id_number and tag_id out, never blank them. */
export const nonBlankText = (name: 'fullname' | 'id_number' | 'tag_id') =>
  v.pipe(
    text(name),
    v.check((value) => value !== '', `${name} may not be blank`),
  );

const EXPIRY_FORMAT = 'expiry dates must be yyyy-mm-dd';

/** One of the user's operators, by its id. */
export const operatorUid = described(requiredInteger('operator_uid'), "One of the user's operators.");

/** What the names mean where addOperator requires them and editOperator only refuses them blank. */
export const OPERATOR_NAMES = {
  fullname: "The driver's full name.",
  id_number: "The driver's identity document number.",
  tag_id: "The driver's identification tag as the tracking devices read it; unique across all users.",
};

/** An expiry day; the record reads it back as `yyyy-mm-dd 00:00:00`, so a record sent back to editOperator is taken too. */
const expiryDate = v.optional(
  v.pipe(
    v.unknown(),
    v.transform((value) => (typeof value === 'string' ? value.trim().replace(/ 00:00:00$/, '') : value)),
    requiredDate(EXPIRY_FORMAT),
    v.metadata({ wire: { type: 'string', pattern: DAY_OR_MIDNIGHT_PATTERN.source } }),
  ),
);

/**
 * The optional parameters addOperator and editOperator share, in the spec's order. Absent stays
 * undefined: addOperator then applies the defaults, editOperator keeps the stored value.
 */
export const operatorDetailEntries = {
  default_trip_type: described(
    v.optional(
      v.pipe(
        v.unwrap(optionalInteger('default_trip_type', 'default_trip_type must be an integer of 0 or more')),
        v.minValue(0, 'default_trip_type must be an integer of 0 or more'),
      ),
    ),
    "Id of the driver's default trip type, a whole number of 0 or more.",
  ),
  active_flag: described(optionalFlag('active_flag'), '1: active, 0: inactive.'),
  mobile_number: described(text('mobile_number'), 'Mobile phone number.'),
  home_number: described(text('home_number'), 'Home phone number.'),
  employee_number: described(text('employee_number'), "The employer's number for the driver."),
  current_points: described(text('current_points'), "Demerit points on the driver's licence, as text."),
  home_address: described(text('home_address'), 'Postal or street address.'),
  next_of_kin: described(text('next_of_kin'), "Name of the driver's next of kin."),
  next_of_kin_contact_number: described(text('next_of_kin_contact_number'), 'Phone number of the next of kin.'),
  email_address: described(
    v.pipe(
      text('email_address'),
      v.check((address) => !address || EMAIL_ADDRESS.test(address), 'email_address is not a valid email address'),
      // The same rule for the document (empty allowed), in place of the plain text's pattern.
      v.metadata({ pattern: `^(${EMAIL_ADDRESS.source.slice(1, -1)})?$` }),
    ),
    'E-mail address; empty for none.',
  ),
  driver_licence_expiry_datetime: described(
    expiryDate,
    'Expiry of the driving licence, yyyy-mm-dd (or yyyy-mm-dd 00:00:00, as the record reads it back); 2001-01-01 for none.',
  ),
  pdp_expiry_datetime: described(
    expiryDate,
    'Expiry of the professional driving permit, yyyy-mm-dd (or yyyy-mm-dd 00:00:00); 2001-01-01 for none.',
  ),
  dgp_expiry_datetime: described(
    expiryDate,
    'Expiry of the dangerous goods permit, yyyy-mm-dd (or yyyy-mm-dd 00:00:00); 2001-01-01 for none.',
  ),
  mc_expiry_datetime: described(expiryDate, 'Expiry of the medical certificate, yyyy-mm-dd (or yyyy-mm-dd 00:00:00); 2001-01-01 for none.'),
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
