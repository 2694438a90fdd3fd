import { describe, expect, it } from 'vitest';
import { parsePosition } from '../../shared/domain/tracking/position.ts';

const full = {
  imei: '356307042441013',
  gps_datetime: '2026-11-01T06:00:00Z',
  latitude: -26.2041,
  longitude: 28.0473,
  speed: 42.5,
  heading: 270,
  ignition: true,
  odometer_km: 120345.6,
  engine_hours: 4210.25,
  fuel_raw: 120.5,
  supp_volt: 13.8,
  int_batt_volt: 4.1,
  int_temp: 31,
  ext_temp: -4.5,
  driver_tag_id: '01A2B3C4',
  device_type: 'FMB920',
  config: '12',
  valid: true,
  satellites: 9,
  protocol: 'teltonika',
  received_at: '2026-11-01T06:00:02.000Z',
};
const required = { imei: full.imei, gps_datetime: full.gps_datetime, latitude: full.latitude, longitude: full.longitude };

const parse = (record: unknown) => parsePosition(JSON.stringify(record));

/** The reason a record is refused (fails the test if it is taken). */
function refusal(record: unknown): string {
  const result = typeof record === 'string' ? parsePosition(record) : parse(record);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.position)}`);
  return result.reason;
}

describe('parsePosition of a valid record', () => {
  it('takes every field of a full record with its type', () => {
    expect(parse(full)).toEqual({ ok: true, position: { ...full, gps_datetime: '2026-11-01T06:00:00.000Z', dropped_readings: null } });
  });

  it('needs only imei, gps_datetime, latitude and longitude, and leaves the rest null', () => {
    expect(parse(required)).toEqual({
      ok: true,
      position: {
        ...required,
        gps_datetime: '2026-11-01T06:00:00.000Z',
        speed: null,
        heading: null,
        ignition: null,
        odometer_km: null,
        engine_hours: null,
        fuel_raw: null,
        supp_volt: null,
        int_batt_volt: null,
        int_temp: null,
        ext_temp: null,
        driver_tag_id: null,
        device_type: null,
        config: null,
        valid: null,
        satellites: null,
        protocol: null,
        received_at: null,
        dropped_readings: null,
      },
    });
  });

  it('takes explicit nulls for the optional fields', () => {
    const nulls = Object.fromEntries(
      Object.keys(full)
        .filter((key) => !(key in required))
        .map((key) => [key, null]),
    );
    const result = parse({ ...required, ...nulls });
    expect(result.ok && Object.values(result.position).filter((value) => value === null)).toHaveLength(18);
  });

  it('reads a numeric imei and numeric texts as strings', () => {
    const result = parse({ ...required, imei: 356307042441013, driver_tag_id: 1234, device_type: 3001, config: 12 });
    expect(result.ok && [result.position.imei, result.position.driver_tag_id, result.position.device_type, result.position.config]).toEqual(
      ['356307042441013', '1234', '3001', '12'],
    );
  });

  it('takes the limits of every range', () => {
    for (const [latitude, longitude] of [
      [-90, -180],
      [90, 180],
      [0, 0],
    ]) {
      expect(parse({ ...required, latitude, longitude }).ok).toBe(true);
    }
    expect(parse({ ...required, speed: 0 }).ok).toBe(true);
    expect(parse({ ...required, speed: 400 }).ok).toBe(true);
  });
});

describe('parsePosition of gps_datetime', () => {
  it.each([
    ['2026-11-01T08:00:00+02:00', '2026-11-01T06:00:00.000Z'],
    ['2026-11-01T02:30:00-03:30', '2026-11-01T06:00:00.000Z'],
    ['2026-11-01T01:00:00+02:00', '2026-10-31T23:00:00.000Z'],
    ['2026-11-01T06:00:00.250Z', '2026-11-01T06:00:00.250Z'],
    ['2026-11-01T06:00:00+00:00', '2026-11-01T06:00:00.000Z'],
  ])('normalizes %s to UTC as %s', (text, utc) => {
    const result = parse({ ...required, gps_datetime: text });
    expect(result.ok && result.position.gps_datetime).toBe(utc);
  });

  it.each([
    '2026-11-01 06:00:00',
    '2026-11-01T06:00:00',
    '2026-11-01',
    '2026-13-01T06:00:00Z',
    '2026-11-01T25:00:00Z',
    '2026-11-01T06:00:00+2',
    '01/11/2026 06:00',
    'yesterday',
    '',
  ])('refuses %j', (text) => {
    expect(refusal({ ...required, gps_datetime: text })).toBe('gps_datetime must be ISO 8601 with an offset');
  });

  it('refuses a number of seconds', () => {
    expect(refusal({ ...required, gps_datetime: 1_793_512_800 })).toBe('gps_datetime is required');
  });
});

describe('parsePosition of a record it refuses', () => {
  it('refuses text that is not JSON', () => {
    expect(refusal('{"imei": "356307042441013",')).toBe('not valid JSON');
  });

  it.each([null, [], 'a string', 42])('refuses %j, which is not an object', (value) => {
    expect(parse(value).ok).toBe(false);
  });

  it.each(['imei', 'gps_datetime', 'latitude', 'longitude'])('refuses a record without %s, naming it', (field) => {
    const { [field as keyof typeof required]: _, ...rest } = required;
    expect(refusal(rest)).toMatch(new RegExp(`^${field}\\b`));
  });

  it.each([
    ['imei', true, 'imei is required'],
    ['imei', null, 'imei is required'],
    ['imei', '35630704244101A', 'imei must be 6 to 20 digits'],
    ['imei', '12345', 'imei must be 6 to 20 digits'],
    ['imei', '123456789012345678901', 'imei must be 6 to 20 digits'],
    ['imei', ' 356307042441013', 'imei must be 6 to 20 digits'],
    ['latitude', '-26.2041', 'latitude is required'],
    ['latitude', null, 'latitude is required'],
    ['longitude', '28.0473', 'longitude is required'],
    ['longitude', null, 'longitude is required'],
    ['gps_datetime', null, 'gps_datetime is required'],
  ])('refuses %s = %j with "%s"', (field, value, message) => {
    expect(refusal({ ...required, [field]: value })).toBe(message);
  });

  it.each([
    ['latitude', 90.000001],
    ['latitude', -91],
    ['longitude', 180.5],
    ['longitude', -181],
  ])('refuses %s = %j as out of range', (field, value) => {
    expect(refusal({ ...required, [field]: value })).toBe(`${field} out of range`);
  });

  it('refuses coordinates too large for a double, which JSON reads as Infinity', () => {
    const withHuge = (field: string) => JSON.stringify({ ...required, [field]: 0 }).replace(`"${field}":0`, `"${field}":1e400`);
    expect(refusal(withHuge('latitude'))).toBe('latitude out of range');
    expect(refusal(withHuge('longitude'))).toBe('longitude out of range');
  });
});

/** The position of a record that must be taken (fails the test if it is refused). */
function taken(record: unknown) {
  const result = typeof record === 'string' ? parsePosition(record) : parse(record);
  if (!result.ok) throw new Error(`expected a position, got ${result.reason}`);
  return result.position;
}

describe('parsePosition of a reading that does not fit', () => {
  it.each([
    ['speed', -1],
    ['speed', 401],
    ['odometer_km', -0.1],
    ['engine_hours', -1],
    ['fuel_raw', -0.5],
    ['fuel_raw', 2 ** 62],
    ['satellites', 300],
  ])('drops %s = %j from the point, naming it in dropped_readings', (field, value) => {
    const position = taken({ ...full, [field]: value });
    expect(position).toMatchObject({ latitude: full.latitude, [field]: null, dropped_readings: [field] });
  });

  it.each([
    ['speed', '40'],
    ['heading', '90'],
    ['ignition', 'true'],
    ['ignition', 1],
    ['odometer_km', '1000'],
    ['fuel_raw', false],
    ['supp_volt', '13.8'],
    ['driver_tag_id', { id: 1 }],
    ['device_type', ['FMB920']],
    ['config', true],
    ['received_at', 'soon'],
  ])('drops %s of the wrong type %j, naming it', (field, value) => {
    expect(taken({ ...required, [field]: value })).toMatchObject({ [field]: null, dropped_readings: [field] });
  });

  it.each([
    ['driver_tag_id', 'T'.repeat(64), 'T'.repeat(65)],
    ['driver_tag_id', '01A2B3C4', 'tag\u0007'],
    ['device_type', 'd'.repeat(255), 'd'.repeat(256)],
    ['config', 'ç'.repeat(255), 'c'.repeat(3000)],
    ['protocol', 'traccar:teltonika', 'p\nq'],
  ])('keeps %s of %j and drops one of %j (over its length, or not printable)', (field, fits, dropped) => {
    expect(taken({ ...required, [field]: fits })).toMatchObject({ [field]: fits, dropped_readings: null });
    expect(taken({ ...required, [field]: dropped })).toMatchObject({ [field]: null, dropped_readings: [field] });
  });

  it('keeps the readings an entry point dropped before, beside its own, and ignores names that are no reading', () => {
    const position = taken({ ...required, speed: 500, dropped_readings: ['fuel_raw', 'latitude', 'nonsense', 7] });
    expect(position.dropped_readings).toEqual(['fuel_raw', 'speed']);
  });

  it('drops numbers too large for a double, which JSON reads as Infinity', () => {
    const withHuge = (field: string) => JSON.stringify({ ...required, [field]: 0 }).replace(`"${field}":0`, `"${field}":1e400`);
    for (const field of [
      'speed',
      'heading',
      'odometer_km',
      'engine_hours',
      'fuel_raw',
      'supp_volt',
      'int_batt_volt',
      'int_temp',
      'ext_temp',
    ]) {
      expect(taken(withHuge(field))).toMatchObject({ [field]: null, dropped_readings: [field] });
    }
  });
});

describe('parsePosition messages', () => {
  it.each([
    ['imei', 'imei is required'],
    ['gps_datetime', 'gps_datetime is required'],
    ['latitude', 'latitude is required'],
    ['longitude', 'longitude is required'],
  ])('names a missing %s with its own message', (field, message) => {
    const record: Record<string, unknown> = {
      imei: '356307042441013',
      gps_datetime: '2026-11-01T06:00:00Z',
      latitude: -26.2,
      longitude: 28.04,
    };
    delete record[field];
    expect(parsePosition(JSON.stringify(record))).toEqual({ ok: false, reason: message });
  });

  it('refuses a day that does not exist instead of rolling it over', () => {
    const text = JSON.stringify({ imei: '356307042441013', gps_datetime: '2026-02-30T06:00:00Z', latitude: 0, longitude: 0 });
    expect(parsePosition(text)).toEqual({ ok: false, reason: 'gps_datetime must be ISO 8601 with an offset' });
  });

  it('refuses JSON that is not an object', () => {
    expect(parsePosition('[1,2]')).toEqual({ ok: false, reason: 'not a JSON object' });
  });
});
