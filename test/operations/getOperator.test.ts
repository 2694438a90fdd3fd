import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { notIntegers } from '../support/bad-values.ts';
import { givenUser } from '../support/builders.ts';
import { anOperator, givenOperator } from '../support/operators-builders.ts';

describe('getOperator', () => {
  it("answers the operator record, field by field with the spec's types", async () => {
    // Prepare
    const user = await givenUser();
    const params = anOperator({ default_trip_type: 7, active_flag: 0, mc_expiry_datetime: '2029-09-09' });
    const created = await callOperation('addOperator', { api_key: user.key, ...params });
    // Act
    const res = await callOperation('getOperator', { api_key: user.key, operator_uid: created.body.operator_uid });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.operator).toEqual({
      operator_uid: created.body.operator_uid,
      id_number: '8001015009087',
      fullname: 'Thabo Mokoena',
      tag_id: params.tag_id,
      default_trip_type: 7,
      mobile_number: '+27 82 555 0101',
      home_number: '011 555 0102',
      driver_licence_expiry_datetime: '2027-03-31 00:00:00',
      pdp_expiry_datetime: '2026-12-01 00:00:00',
      dgp_expiry_datetime: '2028-01-15 00:00:00',
      mc_expiry_datetime: '2029-09-09 00:00:00',
      employee_number: 'EMP-0042',
      current_points: '4',
      home_address: '12 Jacaranda Street, Pretoria',
      next_of_kin: 'Lerato Mokoena',
      next_of_kin_contact_number: '+27 83 555 0103',
      active_flag: 0,
      email_address: 'thabo@example.com',
    });
  });

  it('accepts operator_uid with surrounding spaces', async () => {
    const user = await givenUser();
    const { operatorUid } = await givenOperator(user);
    expect(await callOperation('getOperator', { api_key: user.key, operator_uid: ` ${operatorUid} ` })).toBeSuccess();
  });

  it.each(notIntegers)('says "operator_uid is required and must be an integer" when it is %s', async (_case, operator_uid) => {
    const user = await givenUser();
    expect(await callOperation('getOperator', { api_key: user.key, operator_uid })).toBeError(
      400,
      'operator_uid is required and must be an integer',
    );
  });

  it('does not find an operator_uid that never existed', async () => {
    const user = await givenUser();
    expect(await callOperation('getOperator', { api_key: user.key, operator_uid: 999999999 })).toBeError(
      404,
      'operator not found or not linked to this api key',
    );
  });

  it("does not find another user's operator", async () => {
    // Prepare
    const owner = await givenUser();
    const { operatorUid } = await givenOperator(owner);
    const other = await givenUser();
    // Act
    const res = await callOperation('getOperator', { api_key: other.key, operator_uid: operatorUid });
    // Assess
    expect(res).toBeError(404, 'operator not found or not linked to this api key');
  });

  it('refuses a POST with the method message', async () => {
    const user = await givenUser();
    expect(await api.post('getOperator', { api_key: user.key, operator_uid: 1 })).toBeError(405, 'method not allowed, use GET');
  });
});
