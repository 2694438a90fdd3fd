/**
 * Admin CLI: users, API keys and vehicles. Local (`npm start`'s DynamoDB Local) by default;
 * `--table NAME` works on a deployed table with the usual AWS credentials. Each command prints one JSON object.
 *
 *   npm run admin -- user create --name "Acme Logistics" [--gmt-offset 120]
 *   npm run admin -- key create --user 1
 *   npm run admin -- key lock --key K      |  key unlock --key K
 *   npm run admin -- vehicle add --user 1 --imei 356307042441013 --name "Truck 1" [--reg-num R] [--fuel-capacity L] [--fuel-factor F]
 *        [--make M] [--model M] [--model-year Y] [--vin V] [--start-odo KM] [--start-odo-date yyyy-mm-dd] [--device-type T] [--group G]
 *   npm run admin -- vehicle link --user 1 --vehicle 7
 *   npm run admin -- ingest --file positions.ndjson     (normalized position records, one JSON object a line)
 *   npm run admin -- reprocess --vehicle 7 --from 2026-11-01   (re-detect trips and fills from that UTC day on; docs/positions-pipeline.md)
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { createApiKey, setApiKeyLocked } from '../shared/store/api-keys.ts';
import { createUser, findUser } from '../shared/store/users.ts';
import { addVehicle, linkVehicle } from '../shared/store/vehicles.ts';
import { reprocessVehicle } from '../shared/pipeline/reprocess.ts';
import { isCalendarDate } from '../shared/validation.ts';
import { ingestFile } from './ingest.ts';
import { useAwsTable, useLocalStackDefaults } from './local-defaults.ts';

const options = {
  table: { type: 'string' },
  name: { type: 'string' },
  'gmt-offset': { type: 'string' },
  user: { type: 'string' },
  key: { type: 'string' },
  imei: { type: 'string' },
  vehicle: { type: 'string' },
  'reg-num': { type: 'string' },
  'fuel-capacity': { type: 'string' },
  'fuel-factor': { type: 'string' },
  make: { type: 'string' },
  model: { type: 'string' },
  'model-year': { type: 'string' },
  vin: { type: 'string' },
  'start-odo': { type: 'string' },
  'start-odo-date': { type: 'string' },
  'device-type': { type: 'string' },
  group: { type: 'string' },
  'no-ignition': { type: 'boolean' },
  file: { type: 'string' },
  from: { type: 'string' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

class UsageError extends Error {}

const required = (flags: Flags, name: keyof Flags): string => {
  const value = flags[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
};

const integer = (text: string, name: string): number => {
  if (!/^-?\d+$/.test(text)) throw new UsageError(`--${name} must be an integer`);
  return Number(text);
};

const optionalNumber = (flags: Flags, name: keyof Flags): number | null => {
  const value = flags[name];
  if (value === undefined) return null;
  const number = Number(value);
  if (!Number.isFinite(number)) throw new UsageError(`--${name} must be a number`);
  return number;
};

async function existingUser(flags: Flags): Promise<number> {
  const userUid = integer(required(flags, 'user'), 'user');
  if (!(await findUser(userUid))) throw new UsageError(`user ${userUid} not found`);
  return userUid;
}

const commands: Record<string, (flags: Flags) => Promise<Record<string, unknown>>> = {
  async 'user create'(flags) {
    const user = await createUser(required(flags, 'name'), integer(flags['gmt-offset'] ?? '0', 'gmt-offset'));
    return { user_uid: user.userUid, name: user.name };
  },
  async 'key create'(flags) {
    const userUid = await existingUser(flags);
    return { api_key: await createApiKey(userUid), user_uid: userUid };
  },
  async 'key lock'(flags) {
    if (!(await setApiKeyLocked(required(flags, 'key'), true))) throw new UsageError('unknown api key');
    return { locked: true };
  },
  async 'key unlock'(flags) {
    if (!(await setApiKeyLocked(required(flags, 'key'), false))) throw new UsageError('unknown api key');
    return { locked: false };
  },
  async 'vehicle add'(flags) {
    const userUid = await existingUser(flags);
    const imei = required(flags, 'imei');
    if (!/^\d{10,20}$/.test(imei)) throw new UsageError('--imei must be 10 to 20 digits');
    const vehicle = await addVehicle({
      imei,
      name: required(flags, 'name'),
      regNum: flags['reg-num'] ?? null,
      vehGrp: flags.group ?? null,
      deviceType: flags['device-type'] ?? null,
      config: null,
      make: flags.make ?? null,
      model: flags.model ?? null,
      modelYear: flags['model-year'] ?? null,
      vin: flags.vin ?? null,
      odometerAtStart: optionalNumber(flags, 'start-odo'),
      odometerAtStartDate: flags['start-odo-date'] ?? null,
      startHours: null,
      startHoursDate: null,
      licenceExpireDate: null,
      fuelCapacity: optionalNumber(flags, 'fuel-capacity'),
      fuelFactor: optionalNumber(flags, 'fuel-factor') ?? 1,
      ...(flags['no-ignition'] ? { detection: { useIgnition: false } } : {}),
    });
    await linkVehicle(userUid, vehicle.vehicleUid);
    return { vehicle_uid: vehicle.vehicleUid, imei: vehicle.imei };
  },
  async ingest(flags) {
    const file = required(flags, 'file');
    if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
    const outcome = await ingestFile(file);
    return { records: outcome.records, vehicles: outcome.vehicles, trips: outcome.trips, fills: outcome.fills, rejected: outcome.rejected };
  },
  reprocess: reprocessCommand,
  async 'vehicle link'(flags) {
    const userUid = await existingUser(flags);
    const link = await linkVehicle(userUid, integer(required(flags, 'vehicle'), 'vehicle'));
    return { user_uid: userUid, vehicle_uid: link.vehicleUid, imei: link.imei };
  },
};

/** Re-detection over stored history; identities are kept, so it may be run again at any time. */
async function reprocessCommand(flags: Flags): Promise<Record<string, unknown>> {
  const vehicleUid = integer(required(flags, 'vehicle'), 'vehicle');
  const from = required(flags, 'from');
  if (!isCalendarDate(from)) throw new UsageError('--from must be a date (yyyy-mm-dd)');
  const outcome = await reprocessVehicle(vehicleUid, `${from}T00:00:00.000Z`);
  if (!outcome) throw new UsageError(`vehicle ${vehicleUid} not found`);
  const { writeRequests: _writes, keptForSlip, ...changes } = outcome;
  return { vehicle_uid: vehicleUid, from, new_trips: changes.trips, new_fills: changes.fills, changed: changes.changed, removed: changes.removed, fills_kept_for_slip: keptForSlip };
}

export async function runAdmin(argv: string[]): Promise<{ output: Record<string, unknown>; exitCode: number }> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    const command = commands[positionals.slice(0, 2).join(' ')] ?? (positionals.length === 1 ? commands[positionals[0] as string] : undefined);
    if (!command) throw new UsageError(`unknown command; one of: ${Object.keys(commands).join(', ')}`);
    if (values.table) useAwsTable(values.table);
    else useLocalStackDefaults();
    return { output: await command(values), exitCode: 0 };
  } catch (error) {
    const known = error instanceof UsageError || (error instanceof Error && 'status' in error) || (error instanceof TypeError && 'code' in error);
    return { output: { error: known ? (error as Error).message : `failed: ${(error as Error).message}` }, exitCode: 1 };
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { output, exitCode } = await runAdmin(process.argv.slice(2));
  (exitCode === 0 ? process.stdout : process.stderr).write(`${JSON.stringify(output)}\n`);
  process.exit(exitCode);
}
