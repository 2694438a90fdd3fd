import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { anOperator, aTagId, givenOperator, operatorRecord } from '../support/operators-builders.ts';

const TEXT_LIMITS: [string, number][] = [
  ['fullname', 200],
  ['id_number', 50],
  ['tag_id', 50],
  ['mobile_number', 50],
  ['home_number', 50],
  ['employee_number', 50],
  ['current_points', 20],
  ['home_address', 500],
  ['next_of_kin', 200],
  ['next_of_kin_contact_number', 50],
];
const EXPIRIES = ['driver_licence_expiry_datetime', 'pdp_expiry_datetime', 'dgp_expiry_datetime', 'mc_expiry_datetime'];

describe('addOperator', () => {
  describe('creating', () => {
    it('answers the new integer operator_uid and stores every field given', async () => {
      // Prepare
      const user = await givenUser();
      const params = anOperator();
      // Act
      const res = await callOperation('addOperator', { api_key: user.key, ...params });
      // Assess
      expect(res.body).toEqual({ version: '1', result: 'success', error_msg: '', operator_uid: expect.any(Number) });
      expect(Number.isInteger(res.body.operator_uid)).toBe(true);
      expect(await operatorRecord(user, res.body.operator_uid)).toEqual({
        operator_uid: res.body.operator_uid,
        id_number: '8001015009087',
        fullname: 'Thabo Mokoena',
        tag_id: params.tag_id,
        default_trip_type: 3,
        mobile_number: '+27 82 555 0101',
        home_number: '011 555 0102',
        driver_licence_expiry_datetime: '2027-03-31 00:00:00',
        pdp_expiry_datetime: '2026-12-01 00:00:00',
        dgp_expiry_datetime: '2028-01-15 00:00:00',
        mc_expiry_datetime: '2026-06-30 00:00:00',
        employee_number: 'EMP-0042',
        current_points: '4',
        home_address: '12 Jacaranda Street, Pretoria',
        next_of_kin: 'Lerato Mokoena',
        next_of_kin_contact_number: '+27 83 555 0103',
        active_flag: 1,
        email_address: 'thabo@example.com',
      });
    });

    it('applies the defaults to everything but the required fields', async () => {
      // Prepare
      const user = await givenUser();
      const tag_id = aTagId();
      // Act
      const res = await callOperation('addOperator', { api_key: user.key, fullname: 'Sipho Dube', id_number: '7702025009081', tag_id });
      // Assess
      expect(await operatorRecord(user, res.body.operator_uid)).toEqual({
        operator_uid: res.body.operator_uid,
        id_number: '7702025009081',
        fullname: 'Sipho Dube',
        tag_id,
        default_trip_type: 0,
        mobile_number: '',
        home_number: '',
        driver_licence_expiry_datetime: '2001-01-01 00:00:00',
        pdp_expiry_datetime: '2001-01-01 00:00:00',
        dgp_expiry_datetime: '2001-01-01 00:00:00',
        mc_expiry_datetime: '2001-01-01 00:00:00',
        employee_number: '',
        current_points: '',
        home_address: '',
        next_of_kin: '',
        next_of_kin_contact_number: '',
        active_flag: 1,
        email_address: '',
      });
    });

    it('gives each operator a new, increasing id', async () => {
      const user = await givenUser();
      const first = await givenOperator(user);
      const second = await givenOperator(user);
      expect(second.operatorUid).toBeGreaterThan(first.operatorUid);
    });

    it('accepts a JSON body with numbers, and the key in the query string', async () => {
      // Prepare
      const user = await givenUser();
      // a tag of digits only, unlike aTagId's; no other test makes one
      const tag = Date.now() * 1000 + (process.pid % 1000);
      // Act
      const res = await api.post(
        'addOperator',
        { fullname: 'Naledi Khumalo', id_number: 9001015009088, tag_id: tag, default_trip_type: 2, active_flag: 0 },
        { json: true, query: { api_key: user.key } },
      );
      // Assess
      expect(res).toBeSuccess();
      expect(await operatorRecord(user, res.body.operator_uid)).toMatchObject({
        id_number: '9001015009088',
        tag_id: String(tag),
        default_trip_type: 2,
        active_flag: 0,
      });
    });

    it('trims text and keeps unicode as given', async () => {
      // Prepare
      const user = await givenUser();
      const tag = aTagId();
      // Act
      const res = await callOperation('addOperator', {
        api_key: user.key,
        fullname: '  Zoë Ndlovu 🚚 ',
        id_number: ' 123 ',
        tag_id: ` ${tag}  `,
        home_address: ' Straße 1 ',
      });
      // Assess
      expect(await operatorRecord(user, res.body.operator_uid)).toMatchObject({
        fullname: 'Zoë Ndlovu 🚚',
        id_number: '123',
        tag_id: tag,
        home_address: 'Straße 1',
      });
    });

    it('accepts an empty optional text field as empty', async () => {
      const user = await givenUser();
      const { operatorUid } = await givenOperator(user, { email_address: '', mobile_number: '' });
      expect(await operatorRecord(user, operatorUid)).toMatchObject({ email_address: '', mobile_number: '' });
    });
  });

  describe('required fields', () => {
    it.each([
      ['nothing is given', {}, 'fullname is required'],
      ['fullname is blank', { fullname: '   ', id_number: '1', tag_id: 'T' }, 'fullname is required'],
      ['only fullname is given', { fullname: 'A' }, 'id_number is required'],
      ['id_number is empty', { fullname: 'A', id_number: '', tag_id: 'T' }, 'id_number is required'],
      ['tag_id is missing', { fullname: 'A', id_number: '1' }, 'tag_id is required'],
      ['tag_id is blank', { fullname: 'A', id_number: '1', tag_id: ' ' }, 'tag_id is required'],
    ])('answers in spec order when %s', async (_case, params, message) => {
      const user = await givenUser();
      expect(await callOperation('addOperator', { api_key: user.key, ...params })).toBeError(400, message);
    });

    it('refuses a JSON null or object for a required field', async () => {
      const user = await givenUser();
      const post = (body: object) =>
        api.post(
          'addOperator',
          {},
          { rawBody: JSON.stringify({ api_key: user.key, ...body }), headers: { 'Content-Type': 'application/json' } },
        );
      expect(await post({ fullname: null, id_number: '1', tag_id: 'T' })).toBeError(400, 'fullname is required');
      expect(await post({ fullname: 'A', id_number: { n: 1 }, tag_id: 'T' })).toBeError(400, 'id_number is required');
    });
  });

  describe('limits and formats', () => {
    it.each(TEXT_LIMITS)('accepts %s at its limit of %i characters and refuses one more', async (name, max) => {
      // Prepare
      const user = await givenUser();
      const atLimit = name === 'tag_id' ? aTagId().padEnd(max, 'é') : 'é'.repeat(max);
      // Act
      const longest = await callOperation('addOperator', { api_key: user.key, ...anOperator({ [name]: atLimit }) });
      const tooLong = await callOperation('addOperator', { api_key: user.key, ...anOperator({ [name]: 'x'.repeat(max + 1) }) });
      // Assess
      expect(longest).toBeSuccess();
      expect(tooLong).toBeError(400, `${name} is too long (max ${max} chars)`);
    });

    it.each(['thabo', 'thabo@', '@example.com', 'thabo@example', 'tha bo@example.com', 'a@b@c.com'])(
      'refuses the email address %s',
      async (email_address) => {
        const user = await givenUser();
        expect(await callOperation('addOperator', { api_key: user.key, ...anOperator({ email_address }) })).toBeError(
          400,
          'email_address is not a valid email address',
        );
      },
    );

    it('refuses an email address over 254 characters', async () => {
      const user = await givenUser();
      const email_address = `${'a'.repeat(64)}@${'b'.repeat(186)}.com`;
      expect(await callOperation('addOperator', { api_key: user.key, ...anOperator({ email_address }) })).toBeError(
        400,
        'email_address is too long (max 254 chars)',
      );
    });

    it.each(
      EXPIRIES.flatMap((name) =>
        ['2026-02-30', '2026-13-01', '2026/01/01', '01-01-2026', '2026-01-01 10:00:00', '', 'soon'].map((value) => [name, value]),
      ),
    )('says "expiry dates must be yyyy-mm-dd" for %s = "%s"', async (name, value) => {
      const user = await givenUser();
      expect(await callOperation('addOperator', { api_key: user.key, ...anOperator({ [name]: value }) })).toBeError(
        400,
        'expiry dates must be yyyy-mm-dd',
      );
    });

    it('accepts a leap day', async () => {
      const user = await givenUser();
      const { operatorUid } = await givenOperator(user, { pdp_expiry_datetime: '2028-02-29' });
      expect((await operatorRecord(user, operatorUid)).pdp_expiry_datetime).toBe('2028-02-29 00:00:00');
    });

    it.each(['2', '-1', 'yes', '', '1.0', 'true'])('says "active_flag must be 0 or 1" for "%s"', async (active_flag) => {
      const user = await givenUser();
      expect(await callOperation('addOperator', { api_key: user.key, ...anOperator({ active_flag }) })).toBeError(
        400,
        'active_flag must be 0 or 1',
      );
    });

    it.each(['abc', '1.5', '-1', '1e30', '99999999999999999999', '', '٣'])('refuses default_trip_type "%s"', async (default_trip_type) => {
      const user = await givenUser();
      expect(await callOperation('addOperator', { api_key: user.key, ...anOperator({ default_trip_type }) })).toBeError(
        400,
        'default_trip_type must be an integer of 0 or more',
      );
    });

    it('refuses huge and boolean numbers in a JSON body with a 400', async () => {
      const user = await givenUser();
      for (const default_trip_type of [1e30, 2 ** 60, true]) {
        const res = await api.post(
          'addOperator',
          {},
          {
            rawBody: JSON.stringify({ api_key: user.key, ...anOperator(), default_trip_type }),
            headers: { 'Content-Type': 'application/json' },
          },
        );
        expect(res).toBeError(400, 'default_trip_type must be an integer of 0 or more');
      }
    });

    it('refuses a list for an optional text field', async () => {
      const user = await givenUser();
      const res = await api.post(
        'addOperator',
        {},
        {
          rawBody: JSON.stringify({ api_key: user.key, ...anOperator(), mobile_number: ['1'] }),
          headers: { 'Content-Type': 'application/json' },
        },
      );
      expect(res).toBeError(400, 'mobile_number must be text');
    });
  });

  describe('tag_id uniqueness', () => {
    it('refuses a tag_id another operator of the same user holds', async () => {
      // Prepare
      const user = await givenUser();
      const { tagId } = await givenOperator(user);
      // Act
      const res = await callOperation('addOperator', { api_key: user.key, ...anOperator({ tag_id: ` ${tagId} ` }) });
      // Assess
      expect(res).toBeError(409, 'tag_id already exists');
      expect((await callOperation('getOperators', { api_key: user.key })).body.cnt).toBe(1);
    });

    it('refuses a tag_id an operator of another user holds', async () => {
      const owner = await givenUser();
      const { tagId } = await givenOperator(owner);
      const other = await givenUser();
      expect(await callOperation('addOperator', { api_key: other.key, ...anOperator({ tag_id: tagId }) })).toBeError(
        409,
        'tag_id already exists',
      );
      expect((await callOperation('getOperators', { api_key: other.key })).body.cnt).toBe(0);
    });

    it('compares tags case-sensitively', async () => {
      const user = await givenUser();
      const tag = `ab${aTagId()}`.toLowerCase();
      await givenOperator(user, { tag_id: tag });
      expect(await callOperation('addOperator', { api_key: user.key, ...anOperator({ tag_id: tag.toUpperCase() }) })).toBeSuccess();
    });

    it('creates exactly one operator when 20 requests from two users race for one tag_id', async () => {
      // Prepare
      const [first, second] = [await givenUser(), await givenUser()];
      const tag_id = aTagId();
      // Act
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          callOperation('addOperator', { api_key: (i % 2 ? first : second).key, ...anOperator({ tag_id, fullname: `Driver ${i}` }) }),
        ),
      );
      // Assess
      expect(results.filter((res) => res.status === 200)).toHaveLength(1);
      for (const res of results.filter((r) => r.status !== 200)) expect(res).toBeError(409, 'tag_id already exists');
      const lists = await Promise.all([first, second].map((user) => callOperation('getOperators', { api_key: user.key })));
      expect(lists.flatMap((res) => res.body.operators).filter((op: { tag_id: string }) => op.tag_id === tag_id)).toHaveLength(1);
    });
  });

  it('refuses a GET with the method message', async () => {
    const user = await givenUser();
    expect(await api.get('addOperator', { api_key: user.key, ...anOperator() })).toBeError(405, 'method not allowed, use POST');
  });

  it('refuses an unknown key before looking at the parameters', async () => {
    expect(await callOperation('addOperator', { api_key: 'not-a-key' })).toBeError(401, 'unknown api key');
  });
});
