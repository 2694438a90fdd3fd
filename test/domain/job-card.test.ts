import { describe, expect, it } from 'vitest';
import { readPayload } from '../../shared/contracts/job-cards.ts';
import { parsePayload } from '../../shared/domain/job-card/parse.ts';
import { describePayload, toUtc } from '../../shared/domain/job-card/rules.ts';

const fieldsOf = (payload: Record<string, unknown>) => describePayload(parsePayload(JSON.stringify(payload)), 0).fields;

describe('DueDate to UTC', () => {
  it.each([
    ['2026-11-02T10:00:00+02:00', '2026-11-02T08:00:00Z'],
    ['2026-11-02T10:00:00Z', '2026-11-02T10:00:00Z'],
    ['2026-11-02t10:00:00z', '2026-11-02T10:00:00Z'],
    ['2026-11-02T10:00:00.987-05:30', '2026-11-02T15:30:00Z'],
    ['2026-11-02 01:15:00+0530', '2026-11-01T19:45:00Z'],
    ['2026-11-02T10:00+02', '2026-11-02T08:00:00Z'],
    ['2026-12-31T23:30:00-01:00', '2027-01-01T00:30:00Z'],
  ])('reads %s as %s', (input, expected) => {
    expect(toUtc(input, 0)).toBe(expected);
  });

  it("takes a datetime without an offset in the user's offset", () => {
    expect(toUtc('2026-11-02T10:00:00', 120)).toBe('2026-11-02T08:00:00Z');
  });

  it.each([
    '2026-11-02',
    '2026-02-30T10:00:00Z',
    '2026-11-02T24:00:00Z',
    '2026-11-02T10:60:00Z',
    '2026-11-02T10:00:00+2',
    'tomorrow',
    '9999-12-31T23:00:00-05:00',
    '',
  ])('leaves %j unextracted', (input) => {
    expect(toUtc(input, 0)).toBeUndefined();
  });
});

describe('recognised keys', () => {
  it('extracts each type within its size, nested SiteAddress included', () => {
    const fields = fieldsOf({
      CompanyId: 'C'.repeat(50),
      SiteAddress: { Line3: 'L3', PostalCode: 'P'.repeat(20) },
      DriverUsername: 'dü',
      Latitude: 0,
      Longitude: -180,
      IsDelivery: 0,
      IsPriority: false,
      TripStopId: -3,
      LoadAssignmentId: Number.MAX_SAFE_INTEGER,
      TripTransactionNo: 'T-1',
      Unknown: 'kept out',
    });
    expect(fields).toEqual({
      company_id: 'C'.repeat(50),
      site_address_line3: 'L3',
      site_address_postal_code: 'P'.repeat(20),
      driver_username: 'dü',
      latitude: 0,
      longitude: -180,
      is_delivery: 0,
      is_priority: 0,
      trip_stop_id: -3,
      load_assignment_id: Number.MAX_SAFE_INTEGER,
      trip_transaction_no: 'T-1',
    });
  });

  it('counts characters, not bytes, for sized strings', () => {
    expect(fieldsOf({ SiteContactNumber: '🚚'.repeat(50) }).site_contact_number).toBe('🚚'.repeat(50));
    expect(fieldsOf({ SiteContactNumber: '🚚'.repeat(51) }).site_contact_number).toBeUndefined();
  });

  it.each([
    ['Latitude', 90.0001],
    ['Longitude', 1e300],
    ['Latitude', 1e-200],
    ['IsDelivery', '1'],
    ['PlannedSequence', 2 ** 53],
    ['SyncState', '7'],
    ['SiteEmail', ['a@b.c']],
    ['Consignor', null],
    ['Instructions', 'x'.repeat(65_536)],
  ])('leaves %s %j unextracted', (key, value) => {
    expect(fieldsOf({ [key]: value })).toEqual({});
  });
});

describe('payload reading', () => {
  it('prefers a raw JSON body to the payload field', () => {
    const payload = readPayload({ kind: 'json', text: '{"a":1}', value: { a: 1 } }, '{"b":2}');
    expect(payload.text).toBe('{"a":1}');
  });

  it('reads a form-read body that is no name=value list as the document itself', () => {
    expect(() => readPayload({ kind: 'form', text: 'true' }, undefined)).toThrow('payload is not valid JSON');
    expect(() => readPayload({ kind: 'form', text: 'api_key=k' }, undefined)).toThrow('payload is required');
    expect(readPayload({ kind: 'form', text: '{"a":"b=c"}' }, undefined).value).toEqual({ a: 'b=c' });
  });
});
