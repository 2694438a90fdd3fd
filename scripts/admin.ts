/**
 * Admin CLI: users, API keys and vehicles. Local (`npm start`'s DynamoDB Local) by default;
 * `--table NAME` works on a deployed table with the usual AWS credentials. Each command prints one JSON
 * object; a refusal prints one JSON line `{"error":"..."}` on stderr and exits 1.
 */
import { pathToFileURL } from 'node:url';
import { createLocalAccount, localIssuer } from '../local/oidc/accounts.ts';
import { EVENT_SETTING_NAMES, eventSettings, SETTINGS_ALLOWING_ZERO, type VehicleSettings } from '../shared/domain/events/settings.ts';
import { isCalendarDate } from '../shared/domain/time.ts';
import { DEFAULT_DETECTION, type DetectionSettings, detectionSettings } from '../shared/domain/tracking/settings.ts';
import { Conflict } from '../shared/errors.ts';
import { faultReport } from '../shared/pipeline/fault-report.ts';
import { reprocessVehicle } from '../shared/pipeline/reprocess.ts';
import { createApiKey, setApiKeyLocked } from '../shared/store/api-keys.ts';
import { lastId } from '../shared/store/counters.ts';
import { createDeviceToken, listDeviceTokens, revokeDeviceToken } from '../shared/store/device-tokens.ts';
import { copyStoredEventsFor, copyVehicleFactsOnLink } from '../shared/store/feed-copies.ts';
import { createPerson } from '../shared/store/people.ts';
import { createUser, findUser } from '../shared/store/users.ts';
import { addVehicle, findVehicle, linkVehicle, setFuelSensor, setVehicleDetection } from '../shared/store/vehicles.ts';
import { type ParsedArgs, requiredOption, runScript, UsageError, useLocalStack } from './cli.ts';
import { createCognitoAccount } from './cognito-person.ts';
import { ingestFileOption } from './ingest.ts';
import { useAwsTable } from './local-defaults.ts';

export const adminUsage = `
npm run admin -- <command> [options]      one JSON object out; errors as one JSON line on stderr, exit 1

  user create --name NAME [--gmt-offset MINUTES] [--email E]
                                                        GMT offset -720..840 (default 0); --email: a person who signs in to
                                                        the console (locally a password is printed; docs/console.md)
  person create --user USER_UID --email E               another person for an existing user
      with --table: --user-pool-id POOL (the stack's UserPoolId output: the account is made in Cognito, which
      e-mails its temporary password) or --issuer ISSUER --subject SUB (a person at another OIDC issuer)
  key create --user USER_UID
  key lock --key KEY      |  key unlock --key KEY
  vehicle add --user USER_UID --imei IMEI --name NAME [--reg-num R] [--fuel-capacity L] [--fuel-factor F]
      [--make M] [--model M] [--model-year YYYY] [--vin V] [--start-odo KM] [--start-odo-date yyyy-mm-dd]
      [--device-type T] [--group G] [--no-ignition]       IMEI: 15 digits; --no-ignition: trips from movement
  vehicle link --user USER_UID --vehicle VEHICLE_UID    share a vehicle with another user; its feed takes the vehicle
                                                        facts of the last 30 days (docs/events.md, "Who sees an event")
  vehicle fuel-sensor --vehicle VEHICLE_UID --io ID [--scale S]
                                                        the Teltonika IO element carrying fuel (default 201), × S (default 1)
  device-token create --user USER_UID                   a token for the user's phones and Traccar servers (docs/devices.md)
  device-token revoke --token TOKEN                     stops working within 60 s
  device-token list --user USER_UID                     ids and dates only, never the tokens
  ingest --file positions.ndjson                        normalized position records, one JSON object a line
  reprocess --vehicle VEHICLE_UID --from yyyy-mm-dd     re-detect trips and fills from that UTC day on (docs/positions-pipeline.md)
  vehicle settings --vehicle VEHICLE_UID [--set NAME=VALUE,...] [--reset NAME,...|all]
      the vehicle's trip, fuel, device-fault and event settings (defaults in docs/positions-pipeline.md and
      docs/events.md); reprocess applies them
  events migrate-feeds [--user USER_UID]                copy the events stored before feeds into the users' feeds under
                                                        the tenant rule; safe to run again (docs/operations.md)
  faults --vehicle VEHICLE_UID --from yyyy-mm-dd [--to yyyy-mm-dd]
      device faults per class in those UTC days: points set aside or ignored, readings ignored, the newest of each

  --get FIELD     print only this field of the answer (e.g. ACME=$(npm run -s admin -- user create --name Acme --get user_uid))
  --table NAME    work on a deployed table (AWS credentials) instead of the local stack
  Names and texts: not blank, at most 255 characters.
`;

const options = {
  table: 'string',
  name: 'string',
  'gmt-offset': 'string',
  user: 'string',
  key: 'string',
  email: 'string',
  issuer: 'string',
  subject: 'string',
  'user-pool-id': 'string',
  imei: 'string',
  vehicle: 'string',
  'reg-num': 'string',
  'fuel-capacity': 'string',
  'fuel-factor': 'string',
  make: 'string',
  model: 'string',
  'model-year': 'string',
  vin: 'string',
  'start-odo': 'string',
  'start-odo-date': 'string',
  'device-type': 'string',
  group: 'string',
  'no-ignition': 'boolean',
  token: 'string',
  file: 'string',
  get: 'string',
  from: 'string',
  io: 'string',
  scale: 'string',
  to: 'string',
  set: 'string',
  reset: 'string',
} as const;

type Flags = ParsedArgs['values'];

const MAX_TEXT = 255;
/** The GMT offsets in use on Earth: UTC-12:00 to UTC+14:00. */
const GMT_OFFSET_RANGE = [-720, 840] as const;

/** A required name: trimmed, not blank, bounded. */
const name = (flags: Flags, option: string): string => {
  const value = requiredOption(flags, option);
  if (value.length > MAX_TEXT) throw new UsageError(`--${option} must be at most ${MAX_TEXT} characters`);
  return value;
};

/** An optional text: absent or blank is null; otherwise bounded. */
const optionalText = (flags: Flags, option: string): string | null => {
  const value = flags[option];
  if (typeof value !== 'string' || value.trim() === '') return null;
  if (value.trim().length > MAX_TEXT) throw new UsageError(`--${option} must be at most ${MAX_TEXT} characters`);
  return value.trim();
};

const integer = (text: string, option: string): number => {
  if (!/^[+-]?\d{1,15}$/.test(text.trim())) throw new UsageError(`--${option} must be an integer`);
  return Number(text);
};

/** A record id: a positive integer. */
const uid = (flags: Flags, option: string): number => {
  const value = integer(requiredOption(flags, option), option);
  if (value < 1) throw new UsageError(`--${option} must be a positive integer`);
  return value;
};

const gmtOffset = (flags: Flags): number => {
  const text = flags['gmt-offset'];
  const value = typeof text === 'string' ? integer(text, 'gmt-offset') : 0;
  const [min, max] = GMT_OFFSET_RANGE;
  if (value < min || value > max) throw new UsageError(`--gmt-offset must be minutes from ${min} to ${max}`);
  return value;
};

/** An optional number that must be positive (capacity, factor) or at least zero (an odometer). */
const optionalNumber = (flags: Flags, option: string, { allowZero = false } = {}): number | null => {
  const text = flags[option];
  if (text === undefined) return null;
  const value = typeof text === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value) || value > 1e9 || (allowZero ? value < 0 : value <= 0)) {
    throw new UsageError(`--${option} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  }
  return value;
};

const imei = (flags: Flags): string => {
  const value = requiredOption(flags, 'imei');
  if (!/^\d{15}$/.test(value)) throw new UsageError('--imei must be 15 digits');
  return value;
};

const optionalDate = (flags: Flags, option: string): string | null => {
  const value = optionalText(flags, option);
  if (value !== null && !isCalendarDate(value)) throw new UsageError(`--${option} must be a date yyyy-mm-dd`);
  return value;
};

const modelYear = (flags: Flags): string | null => {
  const value = optionalText(flags, 'model-year');
  if (value !== null && !/^(19|20)\d{2}$/.test(value)) throw new UsageError('--model-year must be a year yyyy');
  return value;
};

async function existingUser(flags: Flags): Promise<number> {
  const userUid = uid(flags, 'user');
  if (!(await findUser(userUid))) throw new UsageError(`user ${userUid} not found`);
  return userUid;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const optionalEmail = (flags: Flags): string | undefined => {
  const value = flags.email;
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > 254 || !EMAIL.test(value.trim()))
    throw new UsageError('--email must be an e-mail address');
  return value.trim().toLowerCase();
};

/**
 * Where the person signs in: locally the provider npm start runs (a password is drawn and printed); on a deployed
 * table the stack's Cognito user pool (the account is made there, scripts/cognito-person.ts), or another issuer's
 * subject given with --issuer and --subject.
 */
async function personOptions(flags: Flags, email: string): Promise<{ issuer: string; subject?: string }> {
  if (typeof flags.table !== 'string') return { issuer: localIssuer() };
  const pool = flags['user-pool-id'];
  if (typeof pool === 'string' && pool.trim()) return createCognitoAccount(pool.trim(), email);
  const [issuer, subject] = [flags.issuer, flags.subject];
  if (typeof issuer !== 'string' || typeof subject !== 'string' || !issuer.trim() || !subject.trim())
    throw new UsageError(
      'with --table, --email needs --user-pool-id POOL, or --issuer ISSUER and --subject SUB (the person at the issuer, docs/console.md)',
    );
  return { issuer: issuer.trim(), subject: subject.trim() };
}

async function createPersonFor(userUid: number, email: string, { issuer, subject }: { issuer: string; subject?: string }) {
  try {
    if (subject) {
      await createPerson({ userUid, email, issuer, subject });
      return { email, issuer, subject };
    }
    const account = await createLocalAccount(userUid, email, issuer);
    return { email, password: account.password, issuer };
  } catch (error) {
    if (error instanceof Conflict) throw new UsageError(error.message);
    throw error;
  }
}

const commands: Record<string, (flags: Flags) => Promise<Record<string, unknown>>> = {
  async 'user create'(flags) {
    const email = optionalEmail(flags);
    const [userName, offset] = [email && flags.name === undefined ? email : name(flags, 'name'), gmtOffset(flags)];
    const signIn = email ? await personOptions(flags, email) : undefined;
    const user = await createUser(userName, offset);
    const person = email && signIn ? await createPersonFor(user.userUid, email, signIn) : {};
    return { user_uid: user.userUid, name: user.name, ...person };
  },
  async 'person create'(flags) {
    const email = optionalEmail(flags);
    if (!email) throw new UsageError('--email is required');
    const userUid = await existingUser(flags);
    const signIn = await personOptions(flags, email);
    return { user_uid: userUid, ...(await createPersonFor(userUid, email, signIn)) };
  },
  async 'key create'(flags) {
    const userUid = await existingUser(flags);
    return { api_key: await createApiKey(userUid), user_uid: userUid };
  },
  async 'key lock'(flags) {
    if (!(await setApiKeyLocked(requiredOption(flags, 'key'), true))) throw new UsageError('unknown api key');
    return { locked: true };
  },
  async 'key unlock'(flags) {
    if (!(await setApiKeyLocked(requiredOption(flags, 'key'), false))) throw new UsageError('unknown api key');
    return { locked: false };
  },
  async 'vehicle add'(flags) {
    uid(flags, 'user');
    const details = {
      imei: imei(flags),
      name: name(flags, 'name'),
      regNum: optionalText(flags, 'reg-num'),
      vehGrp: optionalText(flags, 'group'),
      deviceType: optionalText(flags, 'device-type'),
      config: null,
      make: optionalText(flags, 'make'),
      model: optionalText(flags, 'model'),
      modelYear: modelYear(flags),
      vin: optionalText(flags, 'vin'),
      odometerAtStart: optionalNumber(flags, 'start-odo', { allowZero: true }),
      odometerAtStartDate: optionalDate(flags, 'start-odo-date'),
      startHours: null,
      startHoursDate: null,
      licenceExpireDate: null,
      fuelCapacity: optionalNumber(flags, 'fuel-capacity'),
      fuelFactor: optionalNumber(flags, 'fuel-factor') ?? 1,
      ...(flags['no-ignition'] ? { detection: { useIgnition: false } } : {}),
    };
    const userUid = await existingUser(flags);
    const vehicle = await addVehicle(details);
    await linkVehicle(userUid, vehicle.vehicleUid);
    return { vehicle_uid: vehicle.vehicleUid, imei: vehicle.imei };
  },
  reprocess: reprocessCommand,
  async 'vehicle link'(flags) {
    const vehicleUid = uid(flags, 'vehicle');
    const userUid = await existingUser(flags);
    const link = await linkVehicle(userUid, vehicleUid);
    const { copied } = await copyVehicleFactsOnLink(userUid, vehicleUid);
    return { user_uid: userUid, vehicle_uid: link.vehicleUid, imei: link.imei, events_copied: copied };
  },
  'events migrate-feeds': migrateFeedsCommand,
  async 'vehicle fuel-sensor'(flags) {
    const vehicleUid = uid(flags, 'vehicle');
    const ioId = uid(flags, 'io');
    if (ioId > 65_535) throw new UsageError('--io must be a Teltonika IO element id, 1 to 65535');
    const fuelSensor = { ioId, scale: optionalNumber(flags, 'scale') ?? 1 };
    await setFuelSensor(vehicleUid, fuelSensor);
    return { vehicle_uid: vehicleUid, fuel_sensor: { io: fuelSensor.ioId, scale: fuelSensor.scale } };
  },
  async 'device-token create'(flags) {
    const userUid = await existingUser(flags);
    const { token } = await createDeviceToken(userUid);
    return { device_token: token, user_uid: userUid };
  },
  async 'device-token revoke'(flags) {
    const revoked = await revokeDeviceToken(requiredOption(flags, 'token'));
    if (!revoked) throw new UsageError('unknown device token');
    return { token_id: revoked.tokenId, user_uid: revoked.userUid, revoked_at: revoked.revokedAt };
  },
  async 'device-token list'(flags) {
    const userUid = await existingUser(flags);
    const tokens = await listDeviceTokens(userUid);
    return {
      user_uid: userUid,
      device_tokens: tokens.map((token) => ({ token_id: token.tokenId, created_at: token.createdAt, revoked_at: token.revokedAt })),
    };
  },
  ingest: (flags) => ingestFileOption(flags) as Promise<Record<string, unknown>>,
  'vehicle settings': vehicleSettingsCommand,
  faults: faultsCommand,
};

/** The command named by the first one or two words. */
function findCommand(positionals: string[]): (flags: Flags) => Promise<Record<string, unknown>> {
  if (positionals.length === 0) throw new UsageError('no command given; see --help');
  const command =
    commands[positionals.slice(0, 2).join(' ')] ?? (positionals.length === 1 ? commands[positionals[0] as string] : undefined);
  if (!command)
    throw new UsageError(
      `unknown command ${JSON.stringify(positionals.join(' '))}; one of: ${Object.keys(commands).join(', ')} (see --help)`,
    );
  return command;
}

/**
 * The feed migration: every user (ids 1 to the user counter's last: no Scan), or the one --user names, takes the
 * events stored in its vehicles' partitions before feeds existed; each copy goes on from its note, so a re-run copies
 * nothing twice.
 */
async function migrateFeedsCommand(flags: Flags): Promise<Record<string, unknown>> {
  const userUids = flags.user === undefined ? Array.from({ length: await lastId('user') }, (_, n) => n + 1) : [uid(flags, 'user')];
  const totals = { users: 0, vehicles: 0, events_copied: 0, events_skipped: 0 };
  for (const userUid of userUids) {
    if (!(await findUser(userUid))) continue;
    const outcome = await copyStoredEventsFor(userUid);
    totals.users++;
    totals.vehicles += outcome.vehicles;
    totals.events_copied += outcome.copied;
    totals.events_skipped += outcome.skipped;
  }
  return totals;
}

/** Re-detection over stored history; identities are kept, so it may be run again at any time. */
async function reprocessCommand(flags: Flags): Promise<Record<string, unknown>> {
  const vehicleUid = uid(flags, 'vehicle');
  const from = requiredOption(flags, 'from');
  if (!isCalendarDate(from)) throw new UsageError('--from must be a date (yyyy-mm-dd)');
  const outcome = await reprocessVehicle(vehicleUid, `${from}T00:00:00.000Z`);
  if (!outcome) throw new UsageError(`vehicle ${vehicleUid} not found`);
  const { writeRequests: _writes, keptForSlip, ...changes } = outcome;
  return {
    vehicle_uid: vehicleUid,
    from,
    new_trips: changes.trips,
    new_fills: changes.fills,
    changed: changes.changed,
    removed: changes.removed,
    fills_kept_for_slip: keptForSlip,
  };
}

/** Counts of whole samples; dwell and speedLimitKmh may be 0; every other setting a number above zero (useIgnition: true or false). */
const WHOLE_SETTINGS = new Set<keyof VehicleSettings>(['fuelMedianWindow', 'fuelDropoutSamples']);
const SETTING_NAMES: readonly string[] = [...Object.keys(DEFAULT_DETECTION), ...EVENT_SETTING_NAMES];

function settingOverride(assignment: string): [keyof VehicleSettings, number | boolean] {
  const [name = '', text = ''] = assignment.split('=').map((part) => part.trim());
  if (!SETTING_NAMES.includes(name)) throw new UsageError(`--set: unknown setting ${name}; one of: ${SETTING_NAMES.join(', ')}`);
  const key = name as keyof VehicleSettings;
  if (typeof DEFAULT_DETECTION[key as keyof DetectionSettings] === 'boolean') {
    if (text !== 'true' && text !== 'false') throw new UsageError(`--set ${name} must be true or false`);
    return [key, text === 'true'];
  }
  const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  const lowest = SETTINGS_ALLOWING_ZERO.has(key) ? '0 or above' : 'above 0';
  if (
    !(value >= 0) ||
    (value === 0 && !SETTINGS_ALLOWING_ZERO.has(key)) ||
    value > 1e6 ||
    (WHOLE_SETTINGS.has(key) && !Number.isInteger(value))
  ) {
    throw new UsageError(`--set ${name} must be a ${WHOLE_SETTINGS.has(key) ? 'whole ' : ''}number ${lowest}`);
  }
  return [key, value];
}

/** Shows a vehicle's settings; --set and --reset change its own ones first (the rest are the defaults). */
async function vehicleSettingsCommand(flags: Flags): Promise<Record<string, unknown>> {
  const vehicleUid = uid(flags, 'vehicle');
  const set =
    typeof flags.set === 'string'
      ? flags.set
          .split(',')
          .filter((part) => part.trim())
          .map(settingOverride)
      : [];
  const reset = typeof flags.reset === 'string' ? flags.reset.split(',').map((name) => name.trim()) : [];
  for (const name of reset) {
    if (name !== 'all' && !SETTING_NAMES.includes(name)) throw new UsageError(`--reset: unknown setting ${name}`);
  }
  const vehicle = await findVehicle(vehicleUid);
  if (!vehicle) throw new UsageError(`vehicle ${vehicleUid} not found`);
  let own: Partial<VehicleSettings> = vehicle.detection ?? {};
  if (set.length > 0 || reset.length > 0) {
    const kept = reset.includes('all') ? {} : Object.fromEntries(Object.entries(own).filter(([name]) => !reset.includes(name)));
    own = { ...kept, ...Object.fromEntries(set) };
    await setVehicleDetection(vehicleUid, own);
  }
  const settings = { ...detectionSettings(own), ...eventSettings({ detection: own, fuelCapacity: vehicle.fuelCapacity }) };
  return { vehicle_uid: vehicleUid, settings, own };
}

async function faultsCommand(flags: Flags): Promise<Record<string, unknown>> {
  const vehicleUid = uid(flags, 'vehicle');
  const from = requiredOption(flags, 'from');
  const to = typeof flags.to === 'string' ? flags.to : from;
  if (!isCalendarDate(from)) throw new UsageError('--from must be a date (yyyy-mm-dd)');
  if (!isCalendarDate(to) || to < from) throw new UsageError('--to must be a date (yyyy-mm-dd) not before --from');
  const report = await faultReport(vehicleUid, `${from}T00:00:00.000Z`, `${to}T23:59:59.999Z`);
  if (!report) throw new UsageError(`vehicle ${vehicleUid} not found`);
  return { vehicle_uid: vehicleUid, from, to, faults: report };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runScript({
    usage: adminUsage,
    options,
    async run({ values, positionals }) {
      const command = findCommand(positionals);
      if (typeof values.table === 'string') useAwsTable(values.table);
      else await useLocalStack();
      const field = values.get;
      if (field !== undefined && typeof field !== 'string') throw new UsageError('--get needs a field name');
      const answer = await command(values);
      if (field !== undefined && !(field in answer))
        throw new UsageError(`--get ${field}: the answer has ${Object.keys(answer).join(', ')}`);
      process.stdout.write(`${field === undefined ? JSON.stringify(answer) : String(answer[field])}\n`);
    },
  });
}
