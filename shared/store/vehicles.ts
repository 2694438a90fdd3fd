import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LinkedVehicle, LiveState, Vehicle } from '../domain/vehicle.ts';
import { Conflict, NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { keys } from './keys.ts';
import { batchGet, failedConditions, type Item, itemKey, queryRange, transactWrite } from './requests.ts';

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
      { Put: { TableName: tableName(), Item: vehicleItem(vehicle), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.imeiClaim(vehicle.imei), vehicle_uid: vehicle.vehicleUid },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
  } catch (error) {
    if (failedConditions(error)?.[1]) throw new Conflict(`imei ${vehicle.imei} is already registered`);
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
      Item: { ...keys.vehicleLink(userUid, vehicleUid), ...keys.vehicleUser(vehicleUid, userUid), user_uid: userUid, vehicle_uid: vehicleUid, imei: vehicle.imei },
    }),
  );
  return { vehicleUid, imei: vehicle.imei };
}

export async function findVehicle(vehicleUid: number): Promise<Vehicle | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.vehicle(vehicleUid) }));
  return Item ? vehicleFromItem(Item) : undefined;
}

/** The vehicle if it is linked to the user: the link and the vehicle are read in one BatchGetItem. */
export async function findVehicleForUser(userUid: number, vehicleUid: number): Promise<Vehicle | undefined> {
  const link = keys.vehicleLink(userUid, vehicleUid);
  const items = await batchGet([link, keys.vehicle(vehicleUid)]);
  const linked = items.some((item) => itemKey(item) === itemKey(link));
  const vehicleItemFound = items.find((item) => item.sk === 'VEHICLE');
  return linked && vehicleItemFound ? vehicleFromItem(vehicleItemFound) : undefined;
}

/** The user's vehicle links, ordered by vehicle_uid, narrowed to the IMEIs given (none given: all). */
export async function listVehicleLinks(userUid: number, imeis?: readonly string[]): Promise<VehicleLink[]> {
  const items = await queryRange(keys.vehicleLinkRange(userUid));
  const links = items.map((item) => ({ vehicleUid: Number(item.vehicle_uid), imei: String(item.imei) }));
  if (!imeis) return links;
  const wanted = new Set(imeis);
  return links.filter((link) => wanted.has(link.imei));
}

/**
 * The user's vehicles with their live state: one Query for the links, one BatchGetItem for the vehicles
 * and their track items, which carry the live record (the pipeline writes both in one Put).
 */
export async function listLinkedVehicles(userUid: number, imeis?: readonly string[]): Promise<LinkedVehicle[]> {
  const links = await listVehicleLinks(userUid, imeis);
  const items = await batchGet(links.flatMap((link) => [keys.vehicle(link.vehicleUid), keys.trackState(link.vehicleUid)]));
  const byKey = new Map(items.map((item) => [itemKey(item), item]));
  return links.flatMap((link) => {
    const vehicle = byKey.get(itemKey(keys.vehicle(link.vehicleUid)));
    if (!vehicle) return [];
    const live = byKey.get(itemKey(keys.trackState(link.vehicleUid)))?.live as Item | undefined;
    return [{ vehicle: vehicleFromItem(vehicle), live: live ? liveFromItem(live) : undefined }];
  });
}

/** Sets the live record outside the pipeline (tests, imports) unless a newer position is already stored. */
export async function saveLiveState(vehicleUid: number, live: LiveState): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.trackState(vehicleUid),
        UpdateExpression: 'SET live = :live',
        ConditionExpression: 'attribute_not_exists(live) OR live.gps_datetime <= :gps',
        ExpressionAttributeValues: { ':live': liveItem(live), ':gps': live.gpsDatetime },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

function vehicleItem(vehicle: Vehicle): Item {
  return {
    ...keys.vehicle(vehicle.vehicleUid),
    vehicle_uid: vehicle.vehicleUid,
    imei: vehicle.imei,
    device_type: vehicle.deviceType,
    config: vehicle.config,
    veh_grp: vehicle.vehGrp,
    name: vehicle.name,
    reg_num: vehicle.regNum,
    veh_make: vehicle.make,
    veh_model: vehicle.model,
    veh_model_year: vehicle.modelYear,
    veh_vin: vehicle.vin,
    start_odo: vehicle.odometerAtStart,
    start_odo_date: vehicle.odometerAtStartDate,
    start_hours: vehicle.startHours,
    start_hours_date: vehicle.startHoursDate,
    licence_expire_date: vehicle.licenceExpireDate,
    fuel_capacity: vehicle.fuelCapacity,
    fuel_factor: vehicle.fuelFactor,
    detection: vehicle.detection,
  };
}

const str = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

export function vehicleFromItem(item: Item): Vehicle {
  return {
    vehicleUid: Number(item.vehicle_uid),
    imei: String(item.imei),
    deviceType: str(item.device_type),
    config: str(item.config),
    vehGrp: str(item.veh_grp),
    name: String(item.name),
    regNum: str(item.reg_num),
    make: str(item.veh_make),
    model: str(item.veh_model),
    modelYear: str(item.veh_model_year),
    vin: str(item.veh_vin),
    odometerAtStart: num(item.start_odo),
    odometerAtStartDate: str(item.start_odo_date),
    startHours: num(item.start_hours),
    startHoursDate: str(item.start_hours_date),
    licenceExpireDate: str(item.licence_expire_date),
    fuelCapacity: num(item.fuel_capacity),
    fuelFactor: num(item.fuel_factor) ?? 1,
    ...(item.detection ? { detection: item.detection as Vehicle['detection'] } : {}),
  };
}

export function liveItem(live: LiveState): Item {
  return {
    last_response: live.lastResponse,
    gps_datetime: live.gpsDatetime,
    latitude: live.latitude,
    longitude: live.longitude,
    speed: live.speed,
    heading: live.heading,
    driver_id: live.driverId,
    supp_volt: live.suppVolt,
    int_batt_volt: live.intBattVolt,
    int_temp: live.intTemp,
    ext_temp: live.extTemp,
    fuel_value: live.fuelValue,
    device_type: live.deviceType,
    config: live.config,
    odometer_km: live.odometerKm,
    engine_hours: live.engineHours,
  };
}

export function liveFromItem(item: Item): LiveState {
  return {
    lastResponse: String(item.last_response),
    gpsDatetime: String(item.gps_datetime),
    latitude: Number(item.latitude),
    longitude: Number(item.longitude),
    speed: num(item.speed),
    heading: num(item.heading),
    driverId: str(item.driver_id),
    suppVolt: num(item.supp_volt),
    intBattVolt: num(item.int_batt_volt),
    intTemp: num(item.int_temp),
    extTemp: num(item.ext_temp),
    fuelValue: num(item.fuel_value),
    deviceType: str(item.device_type),
    config: str(item.config),
    odometerKm: num(item.odometer_km),
    engineHours: num(item.engine_hours),
  };
}
