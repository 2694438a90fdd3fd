/**
 * The device benchmark (npm run bench -- devices): a simulated fleet's readings sent through each entry point as
 * devices send them (scripts/devices/protocols.ts) to the local stack, acknowledged once the local pipeline committed
 * them; then 200 Teltonika units on parallel connections against the listener alone (a sink that takes records at
 * once: what one Fargate task can decode and acknowledge; in AWS the stream takes them, not the local pipeline).
 */

import type { LocalStack } from '../../local/stack.ts';
import type { PositionSink } from '../../shared/devices/position-sink.ts';
import { TeltonikaDevice } from '../../shared/devices/teltonika/client.ts';
import { CODEC_8 } from '../../shared/devices/teltonika/codec.ts';
import { encodeAvlPacket } from '../../shared/devices/teltonika/encode.ts';
import { startTeltonikaListener } from '../../shared/devices/teltonika/listener.ts';
import { vehicleDetails } from '../../shared/domain/vehicle.ts';
import { createDeviceToken } from '../../shared/store/device-tokens.ts';
import { createUser } from '../../shared/store/users.ts';
import { addVehicle, findVehicleByImei, linkVehicle } from '../../shared/store/vehicles.ts';
import { fleetDay, interleave, type SimulatedRecord } from '../../simulator/index.ts';
import { avlRecord, PROTOCOLS, sendReadings } from '../devices/protocols.ts';
import { benchListenerLimits, listenerLimitsNotes } from './listener-limits.ts';
import { type BenchSize, percentile, printTable, type Row, round } from './report.ts';

/** the full figures, and the least that still runs every step (test/project/benches.whole-table.test.ts) */
const countsBySize = {
  full: { vehicles: 20, readingsPerVehicle: 30, units: 200, packetsPerUnit: 10 },
  smallest: { vehicles: 2, readingsPerVehicle: 2, units: 2, packetsPerUnit: 1 },
} as const;
const { vehicles: VEHICLES, readingsPerVehicle: READINGS_PER_VEHICLE, units: UNITS, packetsPerUnit: PACKETS_PER_UNIT } = countsBySize.full;
const RECORDS_PER_PACKET = 10;
const DATE = '2026-03-02';

export const devicesNotes = [
  `each entry point: ${VEHICLES} vehicles × ${READINGS_PER_VEHICLE} readings of a simulated day; OsmAnd and Traccar one point a ` +
    'request, 16 requests in flight; Teltonika one connection per unit, 25 records a packet, the next packet after the ack',
  'latency is until the answer (HTTP 200, Teltonika ack), which comes only after the local pipeline committed the records: its ' +
    '200 ms gathering window (local/stack: the stand-in for Kinesis) is most of it; in AWS the answer follows PutRecords instead',
  `Teltonika × ${UNITS}: ${UNITS} units connected at once, each sending ${PACKETS_PER_UNIT} packets of ${RECORDS_PER_PACKET} records; ` +
    'the listener acknowledges as soon as the records are decoded (a sink that resolves at once): what sizes a Fargate task; ' +
    'the local pipeline behind 200 units at once is DynamoDB Local’s limit, not the listener’s (it refused connections)',
  'client, listener, API emulator and DynamoDB Local share this machine’s cores, so these are lower bounds',
];

/** A fleet's readings, its vehicles registered to one user with a device token. */
async function givenFleet(count: number): Promise<{ readings: SimulatedRecord[]; imeis: string[]; token: string }> {
  const days = fleetDay(count, DATE, 30);
  const user = await createUser('Device bench', 0);
  const imeis = days.map((day) => day.records[0]?.imei as string);
  for (const [index, imei] of imeis.entries()) {
    const vehicle = await addVehicle(
      vehicleDetails({
        imei,
        name: `Bench ${index + 1}`,
        deviceType: 'FMB920',
        fuelCapacity: 200,
      }),
    );
    await linkVehicle(user.userUid, vehicle.vehicleUid);
  }
  const { token } = await createDeviceToken(user.userUid);
  return { readings: interleave(days), imeis, token };
}

function row(entryPoint: string, records: number, seconds: number, timings: number[], unit: string): Row {
  return {
    'entry point': entryPoint,
    records,
    'positions/s': round(records / seconds, 0),
    'answers/s': round(timings.length / seconds, 0),
    'p50 ms': round(percentile(timings, 50), 0),
    'p99 ms': round(percentile(timings, 99), 0),
    'answer per': unit,
  };
}

export async function benchDevices(stack: LocalStack, size: BenchSize = 'full'): Promise<Row[]> {
  if (stack.deviceTcpPort === undefined) throw new Error('the devices benchmark needs the stack’s Teltonika listener');
  const { vehicles: VEHICLES, readingsPerVehicle: READINGS_PER_VEHICLE, units: UNITS, packetsPerUnit } = countsBySize[size];
  const rows: Row[] = [];
  const units = await givenFleet(UNITS);
  const fleet = { ...units, readings: units.readings.filter((reading) => units.imeis.indexOf(reading.imei) < VEHICLES) };
  const perVehicle = Map.groupBy(fleet.readings, (reading) => reading.imei);
  const target = { baseUrl: stack.apiUrl, token: fleet.token, tcpHost: '127.0.0.1', tcpPort: stack.deviceTcpPort };
  for (const [index, protocol] of PROTOCOLS.entries()) {
    // Each protocol sends another stretch of the day, so none finds its points already stored.
    const readings = [...perVehicle.values()].flatMap((list) =>
      list.slice(index * READINGS_PER_VEHICLE, (index + 1) * READINGS_PER_VEHICLE),
    );
    const started = performance.now();
    const timings = await sendReadings(protocol, readings, target);
    rows.push(row(protocol, readings.length, (performance.now() - started) / 1000, timings, protocol === 'teltonika' ? 'packet' : 'point'));
  }
  const instant: PositionSink = { put: async () => undefined };
  const alone = await startTeltonikaListener({ port: 0, host: '127.0.0.1', sink: instant, findDevice: findVehicleByImei });
  try {
    rows.push(await manyUnits(`teltonika × ${UNITS} connections (listener alone)`, units, alone.port, packetsPerUnit));
  } finally {
    await alone.close();
  }
  printTable('Teltonika listener limits (a process of its own)', await benchListenerLimits(size), listenerLimitsNotes);
  return rows;
}

/** Every unit connects at once and sends its packets one after the other's ack. */
async function manyUnits(
  label: string,
  fleet: { readings: SimulatedRecord[]; imeis: string[] },
  port: number,
  packetsPerUnit: number,
): Promise<Row> {
  const perUnit = Map.groupBy(fleet.readings, (reading) => reading.imei);
  const timings: number[] = [];
  const started = performance.now();
  await Promise.all(
    fleet.imeis.map(async (imei) => {
      const readings = (perUnit.get(imei) ?? []).slice(-packetsPerUnit * RECORDS_PER_PACKET);
      const device = await TeltonikaDevice.connect('127.0.0.1', port, imei, 60_000);
      try {
        for (let start = 0; start < readings.length; start += RECORDS_PER_PACKET) {
          const packet = encodeAvlPacket(CODEC_8, readings.slice(start, start + RECORDS_PER_PACKET).map(avlRecord));
          const sent = performance.now();
          await device.send(packet);
          timings.push(performance.now() - sent);
        }
      } finally {
        device.close();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return row(label, timings.length * RECORDS_PER_PACKET, seconds, timings, 'packet');
}
