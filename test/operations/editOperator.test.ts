import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { notIntegers } from '../support/bad-values.ts';
import { givenUser, type TestUser } from '../support/builders.ts';
import { anOperator, aTagId, givenOperator, operatorRecord } from '../support/operators-builders.ts';

const holdersOf = async (tagId: string, users: TestUser[]) => {
  const lists = await Promise.all(users.map((user) => callOperation('getOperators', { api_key: user.key })));
  return lists.flatMap((res) => res.body.operators).filter((operator: { tag_id: string }) => operator.tag_id === tagId);
};

describe('editOperator', () => {
  describe('changing fields', () => {
    it('changes the fields given, keeps every other, and answers operator_uid', async () => {
      // Prepare
      const user = await givenUser();
      const { operatorUid } = await givenOperator(user);
      const before = await operatorRecord(user, operatorUid);
      // Act
      const res = await callOperation('editOperator', {
        api_key: user.key,
        operator_uid: operatorUid,
        fullname: 'Thabo M. Mokoena',
        active_flag: 0,
        default_trip_type: 5,
        home_address: '',
        pdp_expiry_datetime: '2027-12-01',
      });
      // Assess
      expect(res.body).toEqual({ version: '1', result: 'success', error_msg: '', operator_uid: operatorUid });
      expect(await operatorRecord(user, operatorUid)).toEqual({
        ...before,
        fullname: 'Thabo M. Mokoena',
        active_flag: 0,
        default_trip_type: 5,
        home_address: '',
        pdp_expiry_datetime: '2027-12-01 00:00:00',
      });
    });

    it('changes every field at once', async () => {
      // Prepare
      const user = await givenUser();
      const { operatorUid } = await givenOperator(user);
      const changes = anOperator({
        fullname: 'Naledi Khumalo',
        id_number: '9001015009088',
        default_trip_type: 1,
        active_flag: 0,
        mobile_number: '1',
        home_number: '2',
        employee_number: 'E-9',
        current_points: '0',
        home_address: 'Durban',
        next_of_kin: 'Sizwe',
        next_of_kin_contact_number: '3',
        email_address: 'naledi@example.org',
        driver_licence_expiry_datetime: '2030-01-01',
        pdp_expiry_datetime: '2030-01-02',
        dgp_expiry_datetime: '2030-01-03',
        mc_expiry_datetime: '2030-01-04',
      });
      // Act
      const res = await callOperation('editOperator', { api_key: user.key, operator_uid: operatorUid, ...changes });
      // Assess
      expect(res).toBeSuccess();
      expect(await operatorRecord(user, operatorUid)).toEqual({
        operator_uid: operatorUid,
        id_number: '9001015009088',
        fullname: 'Naledi Khumalo',
        tag_id: changes.tag_id,
        default_trip_type: 1,
        mobile_number: '1',
        home_number: '2',
        driver_licence_expiry_datetime: '2030-01-01 00:00:00',
        pdp_expiry_datetime: '2030-01-02 00:00:00',
        dgp_expiry_datetime: '2030-01-03 00:00:00',
        mc_expiry_datetime: '2030-01-04 00:00:00',
        employee_number: 'E-9',
        current_points: '0',
        home_address: 'Durban',
        next_of_kin: 'Sizwe',
        next_of_kin_contact_number: '3',
        active_flag: 0,
        email_address: 'naledi@example.org',
      });
    });

    it('answers success and changes nothing when only operator_uid is given', async () => {
      const user = await givenUser();
      const { operatorUid } = await givenOperator(user);
      const before = await operatorRecord(user, operatorUid);
      expect(await callOperation('editOperator', { api_key: user.key, operator_uid: operatorUid })).toBeSuccess();
      expect(await operatorRecord(user, operatorUid)).toEqual(before);
    });

    it('accepts a JSON body with numbers', async () => {
      const user = await givenUser();
      const { operatorUid } = await givenOperator(user);
      const res = await api.post(
        'editOperator',
        { api_key: user.key, operator_uid: operatorUid, id_number: 7702025009081, active_flag: 0 },
        { json: true },
      );
      expect(res).toBeSuccess();
      expect(await operatorRecord(user, operatorUid)).toMatchObject({ id_number: '7702025009081', active_flag: 0 });
    });

    it('reactivates an inactive operator', async () => {
      const user = await givenUser();
      const { operatorUid } = await givenOperator(user, { active_flag: 0 });
      await callOperation('editOperator', { api_key: user.key, operator_uid: operatorUid, active_flag: 1 });
      expect((await operatorRecord(user, operatorUid)).active_flag).toBe(1);
    });
  });

  describe('refusals', () => {
    it.each(notIntegers)('says "operator_uid is required and must be an integer" when it is %s', async (_case, operator_uid) => {
      const user = await givenUser();
      expect(await callOperation('editOperator', { api_key: user.key, operator_uid, fullname: '' })).toBeError(
        400,
        'operator_uid is required and must be an integer',
      );
    });

    it('refuses a huge number in a JSON body', async () => {
      const user = await givenUser();
      expect(await callOperation('editOperator', { api_key: user.key, operator_uid: 1e30 }, { json: true })).toBeError(
        400,
        'operator_uid is required and must be an integer',
      );
    });

    it.each(['fullname', 'id_number', 'tag_id'])('says "%s may not be blank"', async (name) => {
      // Prepare
      const user = await givenUser();
      const { operatorUid } = await givenOperator(user);
      const before = await operatorRecord(user, operatorUid);
      // Act
      const empty = await callOperation('editOperator', { api_key: user.key, operator_uid: operatorUid, [name]: '' });
      const blank = await callOperation('editOperator', { api_key: user.key, operator_uid: operatorUid, [name]: '   ' });
      // Assess
      expect(empty).toBeError(400, `${name} may not be blank`);
      expect(blank).toBeError(400, `${name} may not be blank`);
      expect(await operatorRecord(user, operatorUid)).toEqual(before);
    });

    it.each(['driver_licence_expiry_datetime', 'pdp_expiry_datetime', 'dgp_expiry_datetime', 'mc_expiry_datetime'])(
      'says "expiry dates must be yyyy-mm-dd" for a bad %s',
      async (name) => {
        const user = await givenUser();
        const { operatorUid } = await givenOperator(user);
        for (const value of ['2026-02-30', '2026-1-1', '2026-01-01 10:00:00', '2026-02-30 00:00:00', '']) {
          expect(await callOperation('editOperator', { api_key: user.key, operator_uid: operatorUid, [name]: value })).toBeError(
            400,
            'expiry dates must be yyyy-mm-dd',
          );
        }
      },
    );

    it('takes an expiry as the record reads it back (yyyy-mm-dd 00:00:00), so a record can be sent back whole', async () => {
      // Prepare
      const user = await givenUser();
      const { operatorUid } = await givenOperator(user);
      // Act
      const res = await callOperation('editOperator', {
        api_key: user.key,
        operator_uid: operatorUid,
        pdp_expiry_datetime: '2027-08-31 00:00:00',
      });
      // Assess
      expect(res.status).toBe(200);
      const read = await callOperation('getOperator', { api_key: user.key, operator_uid: operatorUid });
      expect(read.body.operator).toMatchObject({ pdp_expiry_datetime: '2027-08-31 00:00:00' });
    });

    it('refuses a bad email address, flag, trip type and over-long text', async () => {
      const user = await givenUser();
      const { operatorUid } = await givenOperator(user);
      const edit = (params: Record<string, string>) =>
        callOperation('editOperator', { api_key: user.key, operator_uid: operatorUid, ...params });
      expect(await edit({ email_address: 'nobody' })).toBeError(400, 'email_address is not a valid email address');
      expect(await edit({ active_flag: '2' })).toBeError(400, 'active_flag must be 0 or 1');
      expect(await edit({ default_trip_type: 'x' })).toBeError(400, 'default_trip_type must be an integer of 0 or more');
      expect(await edit({ fullname: 'x'.repeat(201) })).toBeError(400, 'fullname is too long (max 200 chars)');
      expect(await edit({ tag_id: 'x'.repeat(51) })).toBeError(400, 'tag_id is too long (max 50 chars)');
    });

    it('does not find an operator_uid that never existed', async () => {
      const user = await givenUser();
      expect(await callOperation('editOperator', { api_key: user.key, operator_uid: 999999999, fullname: 'X' })).toBeError(
        404,
        'operator not found or not linked to this api key',
      );
    });

    it("does not find another user's operator, and leaves it unchanged", async () => {
      // Prepare
      const owner = await givenUser();
      const { operatorUid } = await givenOperator(owner);
      const before = await operatorRecord(owner, operatorUid);
      const other = await givenUser();
      // Act
      const res = await callOperation('editOperator', {
        api_key: other.key,
        operator_uid: operatorUid,
        fullname: 'Mine now',
        tag_id: aTagId(),
      });
      // Assess
      expect(res).toBeError(404, 'operator not found or not linked to this api key');
      expect(await operatorRecord(owner, operatorUid)).toEqual(before);
    });

    it('refuses a GET with the method message', async () => {
      const user = await givenUser();
      expect(await api.get('editOperator', { api_key: user.key, operator_uid: 1 })).toBeError(405, 'method not allowed, use POST');
    });
  });

  describe('tag_id', () => {
    it('keeps the tag when the same tag is sent again, trimmed', async () => {
      const user = await givenUser();
      const { operatorUid, tagId } = await givenOperator(user);
      expect(await callOperation('editOperator', { api_key: user.key, operator_uid: operatorUid, tag_id: ` ${tagId} ` })).toBeSuccess();
      expect((await operatorRecord(user, operatorUid)).tag_id).toBe(tagId);
    });

    it("refuses a tag another user's operator holds, and changes nothing", async () => {
      // Prepare
      const owner = await givenUser();
      const taken = await givenOperator(owner);
      const user = await givenUser();
      const { operatorUid } = await givenOperator(user);
      const before = await operatorRecord(user, operatorUid);
      // Act
      const res = await callOperation('editOperator', {
        api_key: user.key,
        operator_uid: operatorUid,
        tag_id: taken.tagId,
        fullname: 'Changed',
      });
      // Assess
      expect(res).toBeError(409, 'tag_id already exists');
      expect(await operatorRecord(user, operatorUid)).toEqual(before);
    });

    it('frees the old tag for someone else and claims the new one', async () => {
      // Prepare
      const user = await givenUser();
      const { operatorUid, tagId: oldTag } = await givenOperator(user);
      const newTag = aTagId();
      const other = await givenUser();
      // Act
      const res = await callOperation('editOperator', { api_key: user.key, operator_uid: operatorUid, tag_id: newTag });
      // Assess
      expect(res).toBeSuccess();
      expect(await callOperation('addOperator', { api_key: other.key, ...anOperator({ tag_id: oldTag }) })).toBeSuccess();
      expect(await callOperation('addOperator', { api_key: other.key, ...anOperator({ tag_id: newTag }) })).toBeError(
        409,
        'tag_id already exists',
      );
      expect((await operatorRecord(user, operatorUid)).tag_id).toBe(newTag);
    });

    it('lets two operators swap tags through a third, free tag', async () => {
      const user = await givenUser();
      const [a, b] = [await givenOperator(user), await givenOperator(user)];
      const spare = aTagId();
      const edit = (operator_uid: number, tag_id: string) => callOperation('editOperator', { api_key: user.key, operator_uid, tag_id });
      expect(await edit(a.operatorUid, spare)).toBeSuccess();
      expect(await edit(b.operatorUid, a.tagId)).toBeSuccess();
      expect(await edit(a.operatorUid, b.tagId)).toBeSuccess();
      expect((await operatorRecord(user, a.operatorUid)).tag_id).toBe(b.tagId);
      expect((await operatorRecord(user, b.operatorUid)).tag_id).toBe(a.tagId);
    });

    it('lets exactly one of an edit and an add racing for one free tag win, again and again', async () => {
      for (let round = 0; round < 10; round++) {
        // Prepare
        const [editor, adder] = [await givenUser(), await givenUser()];
        const { operatorUid, tagId: oldTag } = await givenOperator(editor);
        const tag = aTagId();
        // Act
        const [edited, added] = await Promise.all([
          callOperation('editOperator', { api_key: editor.key, operator_uid: operatorUid, tag_id: tag }),
          callOperation('addOperator', { api_key: adder.key, ...anOperator({ tag_id: tag }) }),
        ]);
        // Assess
        expect([edited.status, added.status].sort()).toEqual([200, 409]);
        expect(edited.status === 409 ? edited : added).toBeError(409, 'tag_id already exists');
        expect(await holdersOf(tag, [editor, adder])).toHaveLength(1);
        expect((await operatorRecord(editor, operatorUid)).tag_id).toBe(edited.status === 200 ? tag : oldTag);
      }
    });

    it('keeps one holder per tag when edits of two operators race for it', async () => {
      // Prepare
      const user = await givenUser();
      const operators = await Promise.all(Array.from({ length: 6 }, () => givenOperator(user)));
      const tag = aTagId();
      // Act
      const results = await Promise.all(
        operators.map(({ operatorUid }) => callOperation('editOperator', { api_key: user.key, operator_uid: operatorUid, tag_id: tag })),
      );
      // Assess
      expect(results.filter((res) => res.status === 200)).toHaveLength(1);
      for (const res of results.filter((r) => r.status !== 200)) expect(res).toBeError(409, 'tag_id already exists');
      expect(await holdersOf(tag, [user])).toHaveLength(1);
    });

    it("applies concurrent edits of one operator's tag one after the other, leaving one claim", async () => {
      // Prepare
      const user = await givenUser();
      const { operatorUid } = await givenOperator(user);
      const tags = Array.from({ length: 5 }, aTagId);
      // Act
      const results = await Promise.all(
        tags.map((tag_id) => callOperation('editOperator', { api_key: user.key, operator_uid: operatorUid, tag_id })),
      );
      // Assess
      for (const res of results) expect(res).toBeSuccess();
      const final = String((await operatorRecord(user, operatorUid)).tag_id);
      const other = await givenUser();
      for (const tag of tags.filter((t) => t !== final)) {
        expect(await callOperation('addOperator', { api_key: other.key, ...anOperator({ tag_id: tag }) })).toBeSuccess();
      }
      expect(await callOperation('addOperator', { api_key: other.key, ...anOperator({ tag_id: final }) })).toBeError(
        409,
        'tag_id already exists',
      );
    });
  });
});
