/**
 * Operators (drivers): owned by one user; tag_id is unique across all operators of all users.
 * The parameters, the stored attributes and the record all use the spec's names; the domain's are camelCase,
 * mapped here from the parameters and to the record, and by the store's field map to the table.
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

/** tag_id is unique across all users (the devices read the tag, not the user): the 409 of addOperator and editOperator. */
export const TAG_ID_TAKEN = 'tag_id already exists';
