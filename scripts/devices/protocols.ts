/**
 * Normalized records sent as real devices send them: an OsmAnd phone (the query form the Traccar Client POSTs), a
 * Traccar server forwarding (`forward.type=json`), a Teltonika FMB unit (Codec 8 over TCP). `npm run simulate` and
 * `npm run bench -- devices` send through these, so both exercise the entry points a device reaches.
 */

import { KNOTS_TO_KMH } from '../../shared/devices/readings.ts';
import { TeltonikaDevice } from '../../shared/devices/teltonika/client.ts';
import type { AvlRecord } from '../../shared/devices/teltonika/codec.ts';
import { CODEC_8 } from '../../shared/devices/teltonika/codec.ts';
import { encodeAvlPacket } from '../../shared/devices/teltonika/encode.ts';
import { DEFAULT_FUEL_SENSOR } from '../../shared/domain/tracking/settings.ts';
import { inBatches } from '../../shared/providers/map-tiles.ts';
import type { SimulatedRecord } from '../../simulator/index.ts';

export const PROTOCOLS = ['osmand', 'traccar', 'teltonika'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

interface Target {
  /** the stack's base URL (before /devices/…) */
  baseUrl: string;
  token: string;
  tcpHost: string;
  tcpPort: number;
}

/** One send: how long the device waited for the answer, in ms. */
type Timing = number;

/** Teltonika units keep up to a few dozen records per packet when they buffer; phones and Traccar send one point. */
const RECORDS_PER_PACKET = 25;
/** Requests in flight at once over HTTP (a fleet's phones report independently). */
const HTTP_CONCURRENCY = 16;
/** A device keeps a point the server answered 503 for and sends it again. */
const RETRIES = 3;

const optional = (name: string, value: unknown): [string, string][] => (value === null ? [] : [[name, String(value)]]);

function osmandQuery(reading: SimulatedRecord): URLSearchParams {
  return new URLSearchParams([
    ['id', reading.imei],
    // whole seconds, as the app sends them: a fraction is refused (Traccar parses the field as an integer)
    ['timestamp', String(Math.floor(Date.parse(reading.gps_datetime) / 1000))],
    ['lat', String(reading.latitude)],
    ['lon', String(reading.longitude)],
    ['bearing', String(reading.heading)],
    ...optional('speed', reading.speed === null ? null : reading.speed / KNOTS_TO_KMH),
    ...optional('ignition', reading.ignition),
    ...optional('odometer', reading.odometer_km === null ? null : Math.round(reading.odometer_km * 1000)),
    ['fuel', String(reading.fuel_raw)],
    ['power', String(reading.supp_volt)],
    ['battery', String(reading.int_batt_volt)],
    ['deviceTemp', String(reading.int_temp)],
    ...optional('temp1', reading.ext_temp),
    ...optional('driverUniqueId', reading.driver_tag_id),
  ]);
}

function traccarForward(reading: SimulatedRecord): Record<string, unknown> {
  const attributes: Record<string, unknown> = {
    fuel: reading.fuel_raw,
    power: reading.supp_volt,
    battery: reading.int_batt_volt,
    deviceTemp: reading.int_temp,
    sat: 9,
  };
  if (reading.ignition !== null) attributes.ignition = reading.ignition;
  if (reading.odometer_km !== null) attributes.odometer = Math.round(reading.odometer_km * 1000);
  if (reading.ext_temp !== null) attributes.temp1 = reading.ext_temp;
  if (reading.driver_tag_id !== null) attributes.driverUniqueId = reading.driver_tag_id;
  return {
    position: {
      protocol: 'teltonika',
      fixTime: reading.gps_datetime,
      deviceTime: reading.gps_datetime,
      valid: true,
      latitude: reading.latitude,
      longitude: reading.longitude,
      ...(reading.speed === null ? {} : { speed: reading.speed / KNOTS_TO_KMH }),
      course: reading.heading,
      attributes,
    },
    device: { uniqueId: reading.imei, name: reading.imei, model: reading.device_type },
  };
}

/** The reading as an FMB unit records it: IO elements in Teltonika's ids and units (fuel on the default fuel sensor). */
export function avlRecord(reading: SimulatedRecord): AvlRecord {
  const bytes = (size: number, value: number) => {
    const buffer = Buffer.alloc(size);
    buffer.writeIntBE(Math.round(value), 0, size);
    return buffer;
  };
  const io = new Map<number, Buffer>([
    [66, bytes(2, reading.supp_volt * 1000)],
    [67, bytes(2, reading.int_batt_volt * 1000)],
    [DEFAULT_FUEL_SENSOR.ioId, bytes(2, reading.fuel_raw / DEFAULT_FUEL_SENSOR.scale)],
  ]);
  if (reading.ignition !== null) io.set(239, bytes(1, reading.ignition ? 1 : 0));
  if (reading.odometer_km !== null) io.set(16, bytes(4, reading.odometer_km * 1000));
  if (reading.ext_temp !== null) io.set(72, bytes(4, reading.ext_temp * 10));
  if (reading.driver_tag_id !== null) io.set(78, Buffer.from(reading.driver_tag_id.padStart(16, '0'), 'hex'));
  return {
    timestampMs: Date.parse(reading.gps_datetime),
    priority: 0,
    longitude: reading.longitude,
    latitude: reading.latitude,
    altitude: 1500,
    angle: Math.round(reading.heading) % 360,
    satellites: 9,
    // a Teltonika unit always measures speed: a day simulated without it is a phone's, not one for this protocol
    speedKmh: Math.round(reading.speed ?? 0),
    eventIoId: 0,
    io,
  };
}

/** Sends every reading through the protocol; resolves with each send's answer time once all were taken. */
export async function sendReadings(protocol: Protocol, readings: readonly SimulatedRecord[], target: Target): Promise<Timing[]> {
  if (protocol === 'teltonika') return sendTeltonika(readings, target);
  const send =
    protocol === 'osmand'
      ? (reading: SimulatedRecord) =>
          fetch(`${target.baseUrl}/devices/osmand/${encodeURIComponent(target.token)}?${osmandQuery(reading)}`, { method: 'POST' })
      : (reading: SimulatedRecord) =>
          fetch(`${target.baseUrl}/devices/traccar`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${target.token}` },
            body: JSON.stringify(traccarForward(reading)),
          });
  return inBatches(readings, HTTP_CONCURRENCY, async (reading) => {
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const response = await send(reading);
      const answer = await response.text();
      if (response.status === 200) return performance.now() - started;
      if (response.status !== 503 || attempt === RETRIES)
        throw new Error(`${protocol} answered ${response.status}: ${answer.slice(0, 200)}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  });
}

/** One connection per unit, its readings in packets, each sent after the previous one's ack (as a unit does). */
async function sendTeltonika(readings: readonly SimulatedRecord[], target: Target): Promise<Timing[]> {
  const byImei = Map.groupBy(readings, (reading) => reading.imei);
  const timings = await Promise.all(
    [...byImei].map(async ([imei, unitReadings]) => {
      const device = await TeltonikaDevice.connect(target.tcpHost, target.tcpPort, imei);
      const sent: Timing[] = [];
      try {
        for (let start = 0; start < unitReadings.length; start += RECORDS_PER_PACKET) {
          const records = unitReadings.slice(start, start + RECORDS_PER_PACKET).map(avlRecord);
          const started = performance.now();
          const acked = await device.send(encodeAvlPacket(CODEC_8, records));
          if (acked !== records.length) throw new Error(`teltonika acknowledged ${acked} of ${records.length} records`);
          sent.push(performance.now() - started);
        }
      } finally {
        device.close();
      }
      return sent;
    }),
  );
  return timings.flat();
}
