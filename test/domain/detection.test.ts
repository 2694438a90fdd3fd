import { describe, expect, it } from 'vitest';
import {
  type DetectedFill,
  type DetectedTrip,
  detect,
  initialTrackState,
  type TrackState,
  type VehicleProfile,
} from '../../shared/domain/tracking/detector.ts';
import type { Position } from '../../shared/domain/tracking/position.ts';
import { DEFAULT_DETECTION, type DetectionSettings, detectionSettings } from '../../shared/domain/tracking/settings.ts';
import {
  DEFAULT_REPORTING,
  demoFleetDay,
  fleetDay,
  type PlanEvent,
  type SimulatedDay,
  type SimulatedRecord,
  type SimVehicle,
  simulateDay,
  type TruthFill,
} from '../../simulator/index.ts';
import { parsed, profileOf } from '../support/simulated-positions.ts';

// Tolerances of DESIGN.md section 5's acceptance: never loosened to make a case pass.
const DISTANCE_TOLERANCE = 0.02;
const FILL_TOLERANCE = 0.03;
const CONSUMPTION_TOLERANCE = 0.05;

const DATE = '2026-11-01';
const IMEIS = ['356307042441013', '356307042441021', '356307042441039'];
const SEEDS = [1, 2, 3, 4, 5, 6];
// The demo vehicles, all starting from the depot: the plans below begin there.
const [truck, van, bakkie] = demoFleetDay(DATE, IMEIS, 1).map((day) => ({ ...day.vehicle, home: 'Depot Midrand' })) as [
  SimVehicle,
  SimVehicle,
  SimVehicle,
];

interface Outcome {
  trips: DetectedTrip[];
  fills: DetectedFill[];
  state: TrackState;
}

/** Runs the detector over batches in turn, carrying the state between them as the pipeline does. */
function detectBatches(
  batches: readonly Position[][],
  profile: VehicleProfile,
  settings: DetectionSettings = DEFAULT_DETECTION,
  from?: TrackState,
): Outcome {
  let state = from ?? initialTrackState(profile);
  const trips: DetectedTrip[] = [];
  const fills: DetectedFill[] = [];
  for (const batch of batches) {
    const detection = detect(state, batch, profile, settings);
    state = detection.state;
    trips.push(...detection.trips);
    fills.push(...detection.fills);
  }
  return { trips, fills, state };
}

const detectDay = (day: SimulatedDay, settings?: DetectionSettings): Outcome =>
  detectBatches([day.records.map(parsed)], profileOf(day.vehicle), settings);

const seconds = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / 1000;

/** The interval between the records around a true moment: no detector can place the moment closer than that. */
function sampleIntervalAt(records: readonly SimulatedRecord[], at: string): number {
  const next = records.findIndex((record) => record.gps_datetime >= at);
  const after = records[next] as SimulatedRecord;
  const before = after.gps_datetime === at ? after : (records[next - 1] as SimulatedRecord);
  return Math.max(DEFAULT_REPORTING.drivingIntervalS, seconds(before.gps_datetime, after.gps_datetime));
}

const relativeError = (measured: number, truth: number): number => Math.abs(measured - truth) / truth;

const demoDays = SEEDS.flatMap((seed) => demoFleetDay(DATE, IMEIS, seed)).map((day) => ({ day, found: detectDay(day) }));
const wired = demoDays.filter(({ day }) => day.vehicle.ignitionWired);
const unwired = demoDays.filter(({ day }) => !day.vehicle.ignitionWired);

describe('trips on simulated fleet days', () => {
  it('finds exactly the trips each vehicle drove', () => {
    for (const { day, found } of demoDays) {
      expect(found.trips).toHaveLength(day.truth.trips.length);
    }
  });

  it("starts and stops a wired vehicle's trips on its ignition records", () => {
    for (const { day, found } of wired) {
      expect(found.trips.map((trip) => [trip.startTime, trip.stopTime])).toEqual(
        day.truth.trips.map((trip) => [new Date(trip.start).toISOString(), new Date(trip.stop).toISOString()]),
      );
    }
  });

  it('starts and stops the trips of a vehicle without ignition wiring within one sample interval of departure and arrival', () => {
    for (const { day, found } of unwired) {
      day.truth.trips.forEach((truth, index) => {
        const trip = found.trips[index] as DetectedTrip;
        expect(Math.abs(seconds(truth.start, trip.startTime))).toBeLessThanOrEqual(sampleIntervalAt(day.records, truth.start));
        expect(Math.abs(seconds(truth.stop, trip.stopTime))).toBeLessThanOrEqual(sampleIntervalAt(day.records, truth.stop));
      });
    }
  });

  it('gives the same trips for a vehicle without ignition wiring when its settings say so', () => {
    for (const { day, found } of unwired) {
      expect(detectDay(day, detectionSettings({ useIgnition: false })).trips).toEqual(found.trips);
    }
  });

  it("measures each trip's distance within 2 % from the GPS path", () => {
    for (const { day, found } of demoDays.filter(({ day }) => !day.vehicle.reportsOdometer)) {
      day.truth.trips.forEach((truth, index) => {
        expect(relativeError((found.trips[index] as DetectedTrip).distanceKm, truth.distanceKm)).toBeLessThanOrEqual(DISTANCE_TOLERANCE);
      });
    }
  });

  it("keeps the van's 75 minutes of silence while parked out of its trips", () => {
    for (const { day, found } of demoDays.filter(({ day }) => day.vehicle.imei === van.imei)) {
      const gaps = day.records
        .slice(1)
        .map((record, index) => seconds((day.records[index] as SimulatedRecord).gps_datetime, record.gps_datetime));
      expect(Math.max(...gaps)).toBeGreaterThan(70 * 60);
      expect(found.trips).toHaveLength(day.truth.trips.length);
    }
  });
});

describe('the device odometer', () => {
  it('gives trip distance and start odometer for a vehicle that reports odometer_km', () => {
    for (const { day, found } of demoDays.filter(({ day }) => day.vehicle.reportsOdometer)) {
      const odometerAt = (at: string) => day.records.find((record) => new Date(record.gps_datetime).toISOString() === at)?.odometer_km;
      day.truth.trips.forEach((truth, index) => {
        const trip = found.trips[index] as DetectedTrip;
        expect(trip.odometerAtStart).toBe(odometerAt(trip.startTime));
        expect(trip.distanceKm).toBeCloseTo((odometerAt(trip.stopTime) as number) - trip.odometerAtStart, 9);
        expect(relativeError(trip.distanceKm, truth.distanceKm)).toBeLessThanOrEqual(DISTANCE_TOLERANCE);
      });
    }
  });

  it('wins over the GPS path when both are there', () => {
    // Prepare: two positions 5 km apart in a straight line, while the odometer counted 7 km of winding road
    const positions = [
      ...standing(0, 60, 0, true).map((sample) => ({ ...sample, odometer_km: 1000 })),
      { t: 300, km: 5, speed: 60, ignition: true, odometer_km: 1007 },
      ...standing(330, 390, 5, false).map((sample) => ({ ...sample, odometer_km: 1007 })),
    ];
    // Act
    const { trips } = detectBatches([handmade(positions)], plainProfile);
    // Assess
    expect(trips).toHaveLength(1);
    expect(trips[0]?.odometerAtStart).toBe(1000);
    expect(trips[0]?.distanceKm).toBe(7);
  });
});

describe('fuel fills on simulated fleet days', () => {
  it('finds exactly the fills at the depot and the fuel stop', () => {
    for (const { day, found } of demoDays) {
      expect(found.fills).toHaveLength(day.truth.fills.length);
    }
  });

  it('measures each fill within 3 %', () => {
    for (const { day, found } of demoDays) {
      day.truth.fills.forEach((truth, index) => {
        expect(relativeError((found.fills[index] as DetectedFill).fillQty, truth.litres)).toBeLessThanOrEqual(FILL_TOLERANCE);
      });
    }
  });

  it('dates a fill at the last reading before the level rose, within two readings of the pump starting', () => {
    // two: a spike on the last reading before the pump leaves the one before it
    const [low, high] = DEFAULT_REPORTING.parkedIntervalS;
    for (const { day, found } of demoDays) {
      day.truth.fills.forEach((truth, index) => {
        expect(Math.abs(seconds(truth.at, (found.fills[index] as DetectedFill).at))).toBeLessThanOrEqual(low + high);
      });
    }
  });

  it('measures the fuel used between two fills within 5 %', () => {
    const twoFills = demoDays.filter(({ day }) => day.truth.fills.length === 2);
    expect(twoFills.length).toBeGreaterThan(0);
    for (const { day, found } of twoFills) {
      const [first, second] = day.truth.fills as [TruthFill, TruthFill];
      const used = (found.fills[1] as DetectedFill).sincePreviousFill?.fuelUsed as number;
      expect(relativeError(used, first.levelAfter - second.levelBefore)).toBeLessThanOrEqual(CONSUMPTION_TOLERANCE);
    }
  });

  it("turns raw readings into litres with the vehicle's fuel factor", () => {
    // Prepare: a parked vehicle whose sensor reads 20.0, then 60.0 after a fill
    const positions = handmade([
      ...standing(0, 600, 0, false).map((sample) => ({ ...sample, fuel_raw: 20 })),
      ...standing(660, 1800, 0, false).map((sample) => ({ ...sample, fuel_raw: 60 })),
    ]);
    // Act
    const { fills } = detectBatches([positions], { ...plainProfile, fuelFactor: 1.02 });
    // Assess
    expect(fills).toHaveLength(1);
    expect(fills[0]?.levelBefore).toBeCloseTo(20.4, 9);
    expect(fills[0]?.levelAfter).toBeCloseTo(61.2, 9);
    expect(fills[0]?.fillQty).toBeCloseTo(40.8, 9);
  });
});

describe('sensor noise is never a fill', () => {
  const parkedAllDay = (vehicle: SimVehicle, seed: number, spikeRate = DEFAULT_REPORTING.spikeRate) =>
    simulateDay({ vehicle, date: DATE, plan: [], seed, reporting: { spikeRate } });

  it('reports no fill for a vehicle parked all day with a noisy, spiky sensor', () => {
    for (const seed of SEEDS) {
      for (const vehicle of [truck, van, bakkie]) {
        expect(detectDay(parkedAllDay(vehicle, seed)).fills).toEqual([]);
      }
    }
  });

  it('reports no fill when spikes are five times as frequent, even where three land in one filter window', () => {
    for (const seed of SEEDS) {
      for (const vehicle of [truck, van, bakkie]) {
        expect(detectDay(parkedAllDay(vehicle, seed, 0.05)).fills).toEqual([]);
      }
    }
  });

  it('reports no fill on a day of driving and parking without filling up', () => {
    const plan: PlanEvent[] = [
      { kind: 'drive', at: '05:00', to: 'Client Sandton' },
      { kind: 'idle', at: '06:00', minutes: 20 },
      { kind: 'drive', at: '07:00', to: 'Client Kempton Park' },
      { kind: 'drive', at: '09:00', to: 'Depot Midrand' },
    ];
    for (const seed of SEEDS) {
      for (const vehicle of [truck, van, bakkie]) {
        const day = simulateDay({ vehicle, date: DATE, plan, seed, reporting: { spikeRate: 0.03 } });
        const found = detectDay(day);
        expect(found.fills).toEqual([]);
        expect(found.trips).toHaveLength(3);
      }
    }
  });
});

describe('a parked vehicle', () => {
  it('makes no trip from GPS jitter with the ignition off', () => {
    for (const seed of SEEDS) {
      const day = simulateDay({ vehicle: van, date: DATE, plan: [], seed, reporting: { parkedJitterM: 8 } });
      expect(detectDay(day).trips).toEqual([]);
    }
  });

  it('makes no trip from GPS jitter without ignition wiring', () => {
    for (const seed of SEEDS) {
      const day = simulateDay({ vehicle: bakkie, date: DATE, plan: [], seed, reporting: { parkedJitterM: 8 } });
      expect(detectDay(day).trips).toEqual([]);
      expect(detectDay(day, detectionSettings({ useIgnition: false })).trips).toEqual([]);
    }
  });

  it('makes no trip while the engine idles without moving', () => {
    for (const seed of SEEDS) {
      for (const vehicle of [truck, bakkie]) {
        const day = simulateDay({ vehicle, date: DATE, plan: [{ kind: 'idle', at: '06:00', minutes: 45 }], seed });
        expect(detectDay(day).trips).toEqual([]);
      }
    }
  });
});

describe('a fleet reporting every 30 seconds', () => {
  const fleet = fleetDay(12, DATE, 30, 7).map((day) => ({ day, found: detectDay(day) }));

  it('gets trips and fills right for every vehicle', () => {
    for (const { day, found } of fleet) {
      expect(found.trips).toHaveLength(day.truth.trips.length);
      expect(found.fills).toHaveLength(day.truth.fills.length);
      day.truth.trips.forEach((truth, index) => {
        const trip = found.trips[index] as DetectedTrip;
        expect(Math.abs(seconds(truth.start, trip.startTime))).toBeLessThanOrEqual(sampleIntervalAt(day.records, truth.start));
        expect(Math.abs(seconds(truth.stop, trip.stopTime))).toBeLessThanOrEqual(sampleIntervalAt(day.records, truth.stop));
        expect(relativeError(trip.distanceKm, truth.distanceKm)).toBeLessThanOrEqual(DISTANCE_TOLERANCE);
      });
      day.truth.fills.forEach((truth, index) => {
        expect(relativeError((found.fills[index] as DetectedFill).fillQty, truth.litres)).toBeLessThanOrEqual(FILL_TOLERANCE);
      });
    }
  });
});

// --- handmade tracks: a north–south road, one record every 30 s ---------------------------------

interface Sample {
  t: number;
  km: number;
  speed: number;
  ignition: boolean | null;
  odometer_km?: number;
  fuel_raw?: number;
}

const plainProfile: VehicleProfile = { odometerAtStartKm: 0, startHours: null, fuelCapacity: 60, fuelFactor: 1 };
const T0 = Date.parse('2026-11-01T06:00:00Z');
const KM_PER_DEGREE = 111.195;
const iso = (t: number): string => new Date(T0 + t * 1000).toISOString();

function standing(fromS: number, toS: number, km: number, ignition: boolean | null, everyS = 30): Sample[] {
  const samples: Sample[] = [];
  for (let t = fromS; t <= toS; t += everyS) samples.push({ t, km, speed: 0, ignition });
  return samples;
}

/** Driving from one km to another, the first record one step after fromS, the last at toS. */
function driving(fromS: number, toS: number, fromKm: number, toKm: number, ignition: boolean | null, everyS = 30): Sample[] {
  const speed = Math.round(((toKm - fromKm) / (toS - fromS)) * 3600);
  const samples: Sample[] = [];
  for (let t = fromS + everyS; t <= toS; t += everyS)
    samples.push({ t, km: fromKm + ((toKm - fromKm) * (t - fromS)) / (toS - fromS), speed, ignition });
  return samples;
}

const handmade = (samples: readonly Sample[]): Position[] =>
  samples.map(({ t, km, ...rest }) =>
    parsed({ imei: '356307000000001', gps_datetime: iso(t), latitude: -26 - km / KM_PER_DEGREE, longitude: 28.05, ...rest }),
  );

describe('a data gap over an hour', () => {
  it('ends a wired trip at its last position and starts the next at the first position after the silence', () => {
    // Prepare: 8 km, a silence of 3700 s while still driving, 8 km more, ignition off
    const positions = handmade([
      ...standing(0, 30, 0, true),
      ...driving(30, 630, 0, 8, true),
      ...driving(4330, 4930, 20, 28, true),
      ...standing(4960, 5020, 28, false),
    ]);
    // Act
    const { trips } = detectBatches([positions], plainProfile);
    // Assess
    expect(trips.map((trip) => [trip.startTime, trip.stopTime])).toEqual([
      [iso(0), iso(630)],
      [iso(4360), iso(4960)],
    ]);
    expect(trips[0]?.distanceKm).toBeCloseTo(8, 2);
    expect(trips[1]?.distanceKm).toBeCloseTo(8 - 8 / 20, 2);
  });

  it('does the same for a vehicle without ignition wiring', () => {
    // Prepare
    const positions = handmade([
      ...standing(0, 300, 0, null),
      ...driving(300, 900, 0, 8, null),
      ...driving(4600, 5200, 20, 28, null),
      ...standing(5230, 5600, 28, null),
    ]);
    // Act
    const { trips } = detectBatches([positions], plainProfile);
    // Assess
    expect(trips.map((trip) => [trip.startTime, trip.stopTime])).toEqual([
      [iso(300), iso(900)],
      [iso(4630), iso(5230)],
    ]);
    expect(trips[1]?.distanceKm).toBeCloseTo(8 - 8 / 20, 2);
  });

  it('keeps one trip across a silence shorter than an hour', () => {
    // Prepare
    const positions = handmade([
      ...standing(0, 30, 0, true),
      ...driving(30, 630, 0, 8, true),
      ...driving(3630, 4230, 20, 28, true),
      ...standing(4260, 4320, 28, false),
    ]);
    // Act
    const { trips } = detectBatches([positions], plainProfile);
    // Assess
    expect(trips.map((trip) => [trip.startTime, trip.stopTime])).toEqual([[iso(0), iso(4260)]]);
  });
});

describe('noise trips', () => {
  it('drops a trip shorter than 200 m', () => {
    const positions = handmade([...standing(0, 60, 0, true), ...driving(60, 240, 0, 0.15, true), ...standing(270, 330, 0.15, false)]);
    expect(detectBatches([positions], plainProfile).trips).toEqual([]);
  });

  it('drops a trip shorter than 60 s', () => {
    const positions = handmade([
      { t: 0, km: 0, speed: 0, ignition: true },
      ...driving(0, 40, 0, 0.5, true, 10),
      { t: 50, km: 0.5, speed: 0, ignition: false },
    ]);
    expect(detectBatches([positions], plainProfile).trips).toEqual([]);
  });

  it('keeps a trip just over both', () => {
    const positions = handmade([
      { t: 0, km: 0, speed: 0, ignition: true },
      ...driving(0, 60, 0, 0.25, true, 10),
      { t: 70, km: 0.25, speed: 0, ignition: false },
    ]);
    const { trips } = detectBatches([positions], plainProfile);
    expect(trips).toHaveLength(1);
    expect(trips[0]?.distanceKm).toBeCloseTo(0.25, 3);
    expect(trips[0]?.durationS).toBe(70);
  });
});

describe('order, duplicates and replays', () => {
  const day = demoDays.find(({ day }) => day.vehicle.imei === truck.imei)?.day as SimulatedDay;
  const positions = day.records.map(parsed);
  const profile = profileOf(day.vehicle);
  const inOrder = detectBatches([positions], profile);

  it('sorts a shuffled batch and ignores the duplicates in it', () => {
    // Prepare: every 7th position twice, the batch reversed
    const messy = positions.flatMap((position, index) => (index % 7 ? [position] : [position, { ...position }])).reverse();
    // Act
    const found = detectBatches([messy], profile);
    // Assess
    expect(found).toEqual(inOrder);
  });

  it('ignores a position older than the last one processed', () => {
    // Prepare
    const [morning, afternoon] = splitAt(positions, '2026-11-01T12:00:00Z');
    const before = detectBatches([morning], profile);
    // Act: a late position from the morning arrives after the afternoon has started
    const late = detectBatches(
      [afternoon.slice(0, 10), [morning[100] as Position], afternoon.slice(10)],
      profile,
      DEFAULT_DETECTION,
      before.state,
    );
    // Assess
    expect([...before.trips, ...late.trips]).toEqual(inOrder.trips);
    expect([...before.fills, ...late.fills]).toEqual(inOrder.fills);
  });

  it('finds nothing new when a batch is replayed', () => {
    // Act
    const replay = detectBatches([positions.slice(-300)], profile, DEFAULT_DETECTION, inOrder.state);
    const again = detectBatches([positions], profile, DEFAULT_DETECTION, inOrder.state);
    // Assess
    expect(replay.trips).toEqual([]);
    expect(again).toEqual({ trips: [], fills: [], state: inOrder.state });
  });
});

describe('batches', () => {
  it('gives the same trips, fills and state whether a day arrives in one batch or in many small ones', () => {
    for (const { day, found } of demoDays.slice(0, 3)) {
      // Prepare: batches of 1 to 40 positions
      const positions = day.records.map(parsed);
      const batches: Position[][] = [];
      for (let start = 0, size = 1; start < positions.length; start += size, size = ((size * 7) % 40) + 1)
        batches.push(positions.slice(start, start + size));
      // Act
      const inBatches = detectBatches(batches, profileOf(day.vehicle));
      // Assess
      expect(batches.length).toBeGreaterThan(50);
      expect(inBatches).toEqual(found);
    }
  });
});

function splitAt(positions: readonly Position[], at: string): [Position[], Position[]] {
  const index = positions.findIndex((position) => position.gps_datetime >= at);
  return [positions.slice(0, index), positions.slice(index)];
}
