import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { hashApiKey } from '../../shared/domain/api-key.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { findVehicleByImei } from '../../shared/store/vehicles.ts';
import { admin } from '../support/admin.ts';
import { api } from '../support/api.ts';
import { anImei } from '../support/builders.ts';

const run = promisify(execFile);

describe('the admin CLI', () => {
  it('creates a user, a key and a vehicle that the API then serves', async () => {
    // Act
    const user = await admin('user', 'create', '--name', 'Acme Logistics', '--gmt-offset', '120');
    const key = await admin('key', 'create', '--user', String(user.json.user_uid));
    const imei = await anImei();
    const vehicle = await admin(
      'vehicle',
      'add',
      '--user',
      String(user.json.user_uid),
      '--imei',
      imei,
      '--name',
      'Truck 1',
      '--reg-num',
      'GP 1',
      '--fuel-capacity',
      '200',
      '--fuel-factor',
      '1.1',
    );
    const served = await api.get('getVehicles', { api_key: key.json.api_key });
    // Assess
    expect(user.json).toEqual({ user_uid: expect.any(Number), name: 'Acme Logistics' });
    expect(key.json).toEqual({ api_key: expect.stringMatching(/^[\w-]{43}$/), user_uid: user.json.user_uid });
    expect(vehicle.json).toEqual({ vehicle_uid: expect.any(Number), imei });
    expect(served.body.vehicles).toEqual([
      expect.objectContaining({
        vehicle_uid: String(vehicle.json.vehicle_uid),
        imei,
        name: 'Truck 1',
        reg_num: 'GP 1',
        fuel_capacity: '200',
        fuel_factor: '1.1',
      }),
    ]);
  });

  it('locks and unlocks a key', async () => {
    const user = await admin('user', 'create', '--name', 'Lockable');
    const { json } = await admin('key', 'create', '--user', String(user.json.user_uid));
    expect((await admin('key', 'lock', '--key', json.api_key)).json).toEqual({ locked: true });
    expect(await api.get('getVehicles', { api_key: json.api_key })).toBeError(403, 'api key locked');
    expect((await admin('key', 'unlock', '--key', json.api_key)).json).toEqual({ locked: false });
    expect(await api.get('getVehicles', { api_key: json.api_key })).toBeSuccess();
  });

  it('links an existing vehicle to a second user', async () => {
    const owner = await admin('user', 'create', '--name', 'Owner');
    const partner = await admin('user', 'create', '--name', 'Partner');
    const vehicle = await admin('vehicle', 'add', '--user', String(owner.json.user_uid), '--imei', await anImei(), '--name', 'Shared');
    const link = await admin('vehicle', 'link', '--user', String(partner.json.user_uid), '--vehicle', String(vehicle.json.vehicle_uid));
    expect(link.json).toEqual({
      user_uid: partner.json.user_uid,
      vehicle_uid: vehicle.json.vehicle_uid,
      imei: vehicle.json.imei,
      events_copied: 0,
    });
  });

  it("sets the IO element and scale a vehicle's Teltonika unit reports fuel in, and refuses an unknown vehicle", async () => {
    // Prepare
    const owner = await admin('user', 'create', '--name', 'Fleet with probes');
    const vehicle = await admin('vehicle', 'add', '--user', String(owner.json.user_uid), '--imei', await anImei(), '--name', 'Tanker');
    // Act
    const set = await admin('vehicle', 'fuel-sensor', '--vehicle', String(vehicle.json.vehicle_uid), '--io', '89', '--scale', '0.8');
    const unknown = await admin('vehicle', 'fuel-sensor', '--vehicle', '999999999', '--io', '89');
    // Assess
    expect(set.json).toEqual({ vehicle_uid: vehicle.json.vehicle_uid, fuel_sensor: { io: 89, scale: 0.8 } });
    expect((await findVehicleByImei(vehicle.json.imei))?.fuelSensor).toEqual({ ioId: 89, scale: 0.8 });
    expect(unknown).toEqual({ code: 1, json: { error: 'vehicle not found' } });
  });

  it('locks a key that starts with a dash, as `--key -abc`', async () => {
    // Prepare: keys made today never start with '-', but keys made before may
    const user = await admin('user', 'create', '--name', 'Dash');
    const dashedKey = `-${'d'.repeat(20)}${user.json.user_uid}`;
    await dynamo().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.apiKey(hashApiKey(dashedKey)), user_uid: user.json.user_uid, gmt_offset_minutes: 0, locked: false },
      }),
    );
    // Act
    const locked = await admin('key', 'lock', '--key', dashedKey);
    // Assess
    expect(locked).toEqual({ code: 0, json: { locked: true } });
    expect(await api.get('getVehicles', { api_key: dashedKey })).toBeError(403, 'api key locked');
  });

  it.each([
    [['user', 'create'], '--name is required'],
    [['user', 'create', '--name', '   '], '--name is required'],
    [['user', 'create', '--name', 'x'.repeat(256)], '--name must be at most 255 characters'],
    [['user', 'create', '--name', 'A', '--gmt-offset', '841'], '--gmt-offset must be minutes from -720 to 840'],
    [['user', 'create', '--name', 'A', '--gmt-offset', '-721'], '--gmt-offset must be minutes from -720 to 840'],
    [['user', 'create', '--name', 'A', '--gmt-offset', '1.5'], '--gmt-offset must be an integer'],
    [['user', 'create', '--name', 'A', '--gmt-offset', '99999999999999999999'], '--gmt-offset must be an integer'],
    [['key', 'create', '--user', '0'], '--user must be a positive integer'],
    [['key', 'create', '--user', '-3'], '--user must be a positive integer'],
    [['vehicle', 'add', '--user', '1', '--imei', '35630704244101', '--name', 'T'], '--imei must be 15 digits'],
    [['vehicle', 'add', '--user', '1', '--imei', '35630704244101X', '--name', 'T'], '--imei must be 15 digits'],
    [['vehicle', 'add', '--user', '1', '--imei', '356307042441013', '--name', ' '], '--name is required'],
    [
      ['vehicle', 'add', '--user', '1', '--imei', '356307042441013', '--name', 'T', '--fuel-capacity', '-5'],
      '--fuel-capacity must be a positive number',
    ],
    [
      ['vehicle', 'add', '--user', '1', '--imei', '356307042441013', '--name', 'T', '--fuel-factor', '0'],
      '--fuel-factor must be a positive number',
    ],
    [
      ['vehicle', 'add', '--user', '1', '--imei', '356307042441013', '--name', 'T', '--start-odo', '1e400'],
      '--start-odo must be a non-negative number',
    ],
    [
      ['vehicle', 'add', '--user', '1', '--imei', '356307042441013', '--name', 'T', '--start-odo-date', '2026-02-30'],
      '--start-odo-date must be a date yyyy-mm-dd',
    ],
    [
      ['vehicle', 'add', '--user', '1', '--imei', '356307042441013', '--name', 'T', '--model-year', '21'],
      '--model-year must be a year yyyy',
    ],
    [
      ['vehicle', 'add', '--user', '1', '--imei', '356307042441013', '--name', 'T', '--reg-num', 'R'.repeat(256)],
      '--reg-num must be at most 255 characters',
    ],
    [['vehicle', 'link', '--user', '1', '--vehicle', '0'], '--vehicle must be a positive integer'],
    [['user', 'create', '--name', 'A', '--colour', 'red'], '--colour is not an option; see --help'],
    [['user', 'create', '--name'], '--name needs a value'],
    [['key', 'create', '--user', '99999999'], 'user 99999999 not found'],
    [['key', 'lock', '--key', 'nope'], 'unknown api key'],
    [['vehicle', 'add', '--user', 'x'], '--user must be an integer'],
    [['vehicle', 'link', '--user', '99999999', '--vehicle', '1'], 'user 99999999 not found'],
    [['frobnicate'], expect.stringContaining('unknown command')],
    [[], 'no command given; see --help'],
  ])('exits 1 with one JSON error line for %j', async (args, error) => {
    const result = await admin(...(args as string[]));
    expect(result).toEqual({ code: 1, json: { error } });
  });

  it('takes an option value that starts with a dash (API keys are base64url)', async () => {
    // Act
    const result = await admin('key', 'lock', '--key', '-abc');
    // Assess
    expect(result).toEqual({ code: 1, json: { error: 'unknown api key' } });
  });

  it('stores the GMT offsets at both ends of the range', async () => {
    // Act
    const west = await admin('user', 'create', '--name', 'Baker Island', '--gmt-offset', '-720');
    const east = await admin('user', 'create', '--name', 'Kiritimati', '--gmt-offset', '+840');
    // Assess
    expect([west.code, east.code]).toEqual([0, 0]);
  });

  it('answers --help with the commands', async () => {
    // Act
    const { stdout } = await run(process.execPath, ['scripts/admin.ts', '--help'], { env: process.env });
    // Assess
    expect(stdout).toContain('npm run admin -- <command>');
    expect(stdout).toContain('vehicle add --user USER_UID --imei IMEI');
  });

  it('refuses an IMEI that is already registered', async () => {
    const user = await admin('user', 'create', '--name', 'Dup');
    const imei = await anImei();
    await admin('vehicle', 'add', '--user', String(user.json.user_uid), '--imei', imei, '--name', 'A');
    const again = await admin('vehicle', 'add', '--user', String(user.json.user_uid), '--imei', imei, '--name', 'B');
    expect(again).toEqual({ code: 1, json: { error: `imei ${imei} is already registered` } });
  });
});

describe('the admin CLI device-token commands', () => {
  it("create a token the user's phones report with, list it without the secret, and revoke it", async () => {
    // Prepare
    const user = await admin('user', 'create', '--name', 'Phones');
    const userUid = String(user.json.user_uid);
    const vehicle = await admin('vehicle', 'add', '--user', userUid, '--imei', await anImei(), '--name', 'Van');
    const point = `/devices/osmand/%s?id=${vehicle.json.imei}&lat=60&lon=30&timestamp=1700000000`;
    const report = (token: string) => fetch(`${inject('apiUrl')}${point.replace('%s', token)}`, { method: 'POST' });
    // Act
    const created = await admin('device-token', 'create', '--user', userUid);
    const token = created.json.device_token as string;
    const accepted = await report(token);
    const listed = await admin('device-token', 'list', '--user', userUid);
    const revoked = await admin('device-token', 'revoke', '--token', token);
    const refused = await report(token);
    const unknown = await admin('device-token', 'revoke', '--token', 'not-a-token');
    // Assess
    expect(created.json).toEqual({ device_token: expect.stringMatching(/^[\w-]{43}$/), user_uid: user.json.user_uid });
    expect(accepted.status).toBe(200);
    expect(listed.json).toEqual({
      user_uid: user.json.user_uid,
      device_tokens: [{ token_id: expect.stringMatching(/^[0-9a-f]{12}$/), created_at: expect.any(String), revoked_at: null }],
    });
    expect(JSON.stringify(listed.json)).not.toContain(token);
    expect(revoked.json).toEqual({
      token_id: listed.json.device_tokens[0].token_id,
      user_uid: user.json.user_uid,
      revoked_at: expect.any(String),
    });
    expect(refused.status).toBe(401);
    expect(unknown).toEqual({ json: { error: 'unknown device token' }, code: 1 });
  });
});
