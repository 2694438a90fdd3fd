/** Operators made through addOperator, as an integrator would; tag_ids are random since they are global. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { api } from './api.ts';
import type { TestUser } from './builders.ts';

type Params = Record<string, string | number | undefined>;

/** Unique by its 56 random bits; always holds letters (`T`, `G`), so its lower case is always another tag. */
export const aTagId = (): string => `TG${randomUUID().replaceAll('-', '').slice(0, 14).toUpperCase()}`;

/** Every parameter of addOperator, filled in. */
export function anOperator(overrides: Params = {}): Params {
  return {
    fullname: 'Thabo Mokoena',
    id_number: '8001015009087',
    tag_id: aTagId(),
    default_trip_type: 3,
    active_flag: 1,
    mobile_number: '+27 82 555 0101',
    home_number: '011 555 0102',
    employee_number: 'EMP-0042',
    current_points: '4',
    home_address: '12 Jacaranda Street, Pretoria',
    next_of_kin: 'Lerato Mokoena',
    next_of_kin_contact_number: '+27 83 555 0103',
    email_address: 'thabo@example.com',
    driver_licence_expiry_datetime: '2027-03-31',
    pdp_expiry_datetime: '2026-12-01',
    dgp_expiry_datetime: '2028-01-15',
    mc_expiry_datetime: '2026-06-30',
    ...overrides,
  };
}

export interface GivenOperator {
  operatorUid: number;
  tagId: string;
}

export async function givenOperator(user: TestUser, overrides: Params = {}): Promise<GivenOperator> {
  const params = anOperator(overrides);
  const res = await api.post('addOperator', { api_key: user.key, ...params });
  expect(res).toBeSuccess();
  return { operatorUid: res.body.operator_uid, tagId: String(params.tag_id) };
}

export async function operatorRecord(user: TestUser, operatorUid: number): Promise<Record<string, unknown>> {
  const res = await api.get('getOperator', { api_key: user.key, operator_uid: operatorUid });
  expect(res).toBeSuccess();
  return res.body.operator;
}
