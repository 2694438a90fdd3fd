import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { VehicleSettings } from '../domain/events/settings.ts';
import type { FuelSensorSetting } from '../domain/tracking/settings.ts';
import type { LinkedVehicle, LiveState, Vehicle } from '../domain/vehicle.ts';
import { Conflict, NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { defineEntity, nullableNumber, nullableText, number, stored, text } from './entity.ts';
import { keys } from './keys.ts';
import {
  batchGet,
  failedConditions,
  type Item,
  isConditionFailed,
  itemKey,
  type PagedRead,
  queryRange,
  transactWrite,
} from './requests.ts';

export type NewVehicle = Omit<Vehicle, 'vehicleUid'>;

/** A vehicle as linked to a user: enough to filter by IMEI without reading the vehicle. */
export interface VehicleLink {
  vehicleUid: number;
  imei: string;
}

/** Registers a vehicle; its IMEI is claimed in the same transaction so one device maps to one vehicle. */
export async function addVehicle(details: NewVehicle): Promise<Vehicle> {
  const vehicle: Vehicle = { ...details, vehicleUid: await nextId('vehicle') };
  try {
    await transactWrite([
      { Put: { TableName: tableName(), Item: vehicleEntity.toItem(vehicle), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.imeiClaim(vehicle.imei), vehicle_uid: vehicle.vehicleUid },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
  } catch (error) {
    if (failedConditions(error)?.[1]) throw new Conflict(`imei ${vehicle.imei} is already registered`, { cause: error });
    throw error;
  }
  return vehicle;
}

/** Links a vehicle to a user (a vehicle may be linked to several users). */
export async function linkVehicle(userUid: number, vehicleUid: number): Promise<VehicleLink> {
  const vehicle = await findVehicle(vehicleUid);
  if (!vehicle) throw new NotFound('vehicle not found');
  await dynamo().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.vehicleLink(userUid, vehicleUid),
        ...keys.vehicleUser(vehicleUid, userUid),
        user_uid: userUid,
        vehicle_uid: vehicleUid,
        imei: vehicle.imei,
      },
    }),
  );
  return { vehicleUid, imei: vehicle.imei };
}

/**
 * Replaces a vehicle's own detection settings (those it does not name take the defaults); false when there is no such
 * vehicle. In the same transaction the quiet-vehicles check's due time goes back to the last point taken, so the check
 * that follows decides the silence in progress by the new settings (offlineAfterS, maxGapS), never waiting for a due
 * time the old ones set (docs/positions-pipeline.md, "Quiet vehicles").
 */
export async function setVehicleDetection(vehicleUid: number, detection: Partial<VehicleSettings>): Promise<boolean> {
  try {
    await transactWrite([
      { Update: settingUpdate(vehicleUid, 'detection', detection) },
      {
        Update: {
          TableName: tableName(),
          Key: keys.trackState(vehicleUid),
          UpdateExpression: 'SET quiet_pk = :quietPk, quiet_due = taken_at',
          ConditionExpression: 'attribute_exists(taken_at)',
          ExpressionAttributeValues: { ':quietPk': keys.quietShard(vehicleUid) },
        },
      },
    ]);
    return true;
  } catch (error) {
    const [noVehicle, neverTookAPoint] = failedConditions(error) ?? [];
    if (noVehicle) return false;
    // no point taken yet, so no silence in progress: its first point's batch has the check look from that point on
    if (neverTookAPoint) return setVehicleSetting(vehicleUid, 'detection', detection);
    throw error;
  }
}

/** Sets where the vehicle's Teltonika unit reports its fuel level; NotFound when there is no such vehicle. */
export async function setFuelSensor(vehicleUid: number, fuelSensor: FuelSensorSetting): Promise<void> {
  if (!(await setVehicleSetting(vehicleUid, 'fuel_sensor', fuelSensor))) throw new NotFound('vehicle not found');
}

type SettingAttribute = 'detection' | 'fuel_sensor';

const settingUpdate = (vehicleUid: number, attribute: SettingAttribute, value: object) => ({
  TableName: tableName(),
  Key: keys.vehicle(vehicleUid),
  UpdateExpression: 'SET #setting = :value',
  ConditionExpression: 'attribute_exists(pk)',
  ExpressionAttributeNames: { '#setting': attribute },
  ExpressionAttributeValues: { ':value': value },
});

/** One setting attribute of an existing vehicle; false when there is no such vehicle. */
async function setVehicleSetting(vehicleUid: number, attribute: SettingAttribute, value: object): Promise<boolean> {
  try {
    await dynamo().send(new UpdateCommand(settingUpdate(vehicleUid, attribute, value)));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

export async function findVehicle(vehicleUid: number): Promise<Vehicle | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.vehicle(vehicleUid) }));
  return Item ? vehicleEntity.fromItem(Item) : undefined;
}

/** The vehicle that claimed the IMEI: what a device identified only by its IMEI reports for. */
export async function findVehicleByImei(imei: string): Promise<Vehicle | undefined> {
  const { Item: claim } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.imeiClaim(imei) }));
  return claim ? findVehicle(Number(claim.vehicle_uid)) : undefined;
}

/** The vehicle if it is linked to the user: the link and the vehicle are read in one BatchGetItem. */
export async function findVehicleForUser(userUid: number, vehicleUid: number): Promise<Vehicle | undefined> {
  const link = keys.vehicleLink(userUid, vehicleUid);
  const items = await batchGet([link, keys.vehicle(vehicleUid)]);
  const linked = items.some((item) => itemKey(item) === itemKey(link));
  const vehicleItemFound = items.find((item) => item.sk === 'VEHICLE');
  return linked && vehicleItemFound ? vehicleEntity.fromItem(vehicleItemFound) : undefined;
}

/** The vehicle linked to the user; NotFound when there is none or it is not linked. */
export async function getVehicleForUser(userUid: number, vehicleUid: number): Promise<Vehicle> {
  const vehicle = await findVehicleForUser(userUid, vehicleUid);
  if (!vehicle) throw NotFound.notLinked('vehicle');
  return vehicle;
}

/** Of the vehicle_uids given, those not linked to the user: one BatchGetItem of their links (per 100), not the user's every link. */
export async function unlinkedVehicleUids(userUid: number, vehicleUids: readonly number[]): Promise<number[]> {
  const found = await batchGet(vehicleUids.map((vehicleUid) => keys.vehicleLink(userUid, vehicleUid)));
  const linked = new Set(found.map((item) => Number(item.vehicle_uid)));
  return vehicleUids.filter((vehicleUid) => !linked.has(vehicleUid));
}

/** The user's vehicle links, ordered by vehicle_uid, narrowed to the IMEIs given (none given: all). */
export async function listVehicleLinks(userUid: number, imeis?: readonly string[]): Promise<VehicleLink[]> {
  const items = await queryRange(keys.vehicleLinkRange(userUid));
  const links = items.map((item) => ({ vehicleUid: Number(item.vehicle_uid), imei: String(item.imei) }));
  if (!imeis) return links;
  const wanted = new Set(imeis);
  return links.filter((link) => wanted.has(link.imei));
}

/** The users a vehicle is linked to, in user order. */
export async function listVehicleUsers(vehicleUid: number): Promise<number[]> {
  const items = await queryRange(keys.vehicleUserRange(vehicleUid));
  return items.map((item) => Number(item.user_uid));
}

/**
 * The user's vehicles with their live state: one Query for the links, one BatchGetItem for the vehicles
 * and their track items, which carry the live record (the pipeline writes both in one Put).
 */
export async function listLinkedVehicles(userUid: number, imeis?: readonly string[]): Promise<LinkedVehicle[]> {
  return withVehicles(await listVehicleLinks(userUid, imeis));
}

/** Vehicles fetched per wave of BatchGetItems: one wave (one round trip) for fleets up to this size. */
const VEHICLES_PER_WAVE = 500;

/**
 * getVehicles and getLiveData: the linked vehicles in vehicle_uid order after `read.after`, a wave of BatchGetItems at a
 * time, as far as the answer takes them (shared/paging). A position is the link's key.
 */
export async function readLinkedVehicles(
  userUid: number,
  imeis: readonly string[] | undefined,
  read: PagedRead<LinkedVehicle>,
): Promise<LinkedVehicle[]> {
  const after = read.after?.sk ?? '';
  const links = (await listVehicleLinks(userUid, imeis)).filter((link) => keys.vehicleLink(userUid, link.vehicleUid).sk > after);
  const taken: LinkedVehicle[] = [];
  for (let start = 0; start < links.length; start += VEHICLES_PER_WAVE) {
    for (const vehicle of await withVehicles(links.slice(start, start + VEHICLES_PER_WAVE))) {
      const position = { ...keys.vehicleLink(userUid, vehicle.vehicle.vehicleUid) };
      if (!read.take(vehicle, position)) return taken;
      taken.push(vehicle);
    }
  }
  return taken;
}

/** One BatchGetItem (in parallel chunks) for the links' vehicles and their track items, which carry the live record. */
async function withVehicles(links: readonly VehicleLink[]): Promise<LinkedVehicle[]> {
  const items = await batchGet(links.flatMap((link) => [keys.vehicle(link.vehicleUid), keys.trackState(link.vehicleUid)]));
  const byKey = new Map(items.map((item) => [itemKey(item), item]));
  return links.flatMap((link) => {
    const vehicle = byKey.get(itemKey(keys.vehicle(link.vehicleUid)));
    if (!vehicle) return [];
    const live = byKey.get(itemKey(keys.trackState(link.vehicleUid)))?.live as Item | undefined;
    return [{ vehicle: vehicleEntity.fromItem(vehicle), live: live ? liveRecordEntity.fromItem(live) : undefined }];
  });
}

/** A vehicle as stored: attribute names are the spec's vehicle parameters. */
export const vehicleEntity = defineEntity<Vehicle>({
  keys: (vehicle) => keys.vehicle(vehicle.vehicleUid),
  fields: {
    vehicleUid: number('vehicle_uid'),
    imei: text('imei'),
    deviceType: nullableText('device_type'),
    config: nullableText('config'),
    vehGrp: nullableText('veh_grp'),
    name: text('name'),
    regNum: nullableText('reg_num'),
    make: nullableText('veh_make'),
    model: nullableText('veh_model'),
    modelYear: nullableText('veh_model_year'),
    vin: nullableText('veh_vin'),
    odometerAtStart: nullableNumber('start_odo'),
    odometerAtStartDate: nullableText('start_odo_date'),
    startHours: nullableNumber('start_hours'),
    startHoursDate: nullableText('start_hours_date'),
    licenceExpireDate: nullableText('licence_expire_date'),
    fuelCapacity: nullableNumber('fuel_capacity'),
    fuelFactor: { name: 'fuel_factor', read: (value) => (value === null || value === undefined ? 1 : Number(value)) },
    detection: stored('detection'),
    fuelSensor: stored('fuel_sensor'),
  },
});

/** The live record, kept as the `live` map of the vehicle's track item. */
export const liveRecordEntity = defineEntity<LiveState>({
  fields: {
    lastResponse: text('last_response'),
    gpsDatetime: text('gps_datetime'),
    latitude: number('latitude'),
    longitude: number('longitude'),
    speed: nullableNumber('speed'),
    heading: nullableNumber('heading'),
    driverId: nullableText('driver_id'),
    suppVolt: nullableNumber('supp_volt'),
    intBattVolt: nullableNumber('int_batt_volt'),
    intTemp: nullableNumber('int_temp'),
    extTemp: nullableNumber('ext_temp'),
    fuelValue: nullableNumber('fuel_value'),
    deviceType: nullableText('device_type'),
    config: nullableText('config'),
    odometerKm: nullableNumber('odometer_km'),
    engineHours: nullableNumber('engine_hours'),
  },
});
