import * as v from 'valibot';
import { TRUCK_01 } from '../../shared/contracts/demo-records.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { imeiFilter, VehicleRecord } from '../../shared/contracts/vehicles.ts';

const GetVehiclesInput = v.object({ filter: imeiFilter, limit: pageLimit(), cursor: pageCursor });

const GetVehiclesOutput = v.object({
  filter: v.string(),
  cnt: integerField,
  vehicles: v.array(VehicleRecord),
  next_cursor: nextCursorField,
});

export const contract = {
  name: 'getVehicles',
  method: 'GET',
  area: 'vehicles',
  tableActions: ['Query', 'BatchGetItem'],
  summary: 'Vehicles linked to the key, optionally filtered by IMEI',
  description:
    "The vehicles linked to the key's user, each with its details and current odometer. `filter` narrows them to a comma-delimited " +
    'list of IMEIs; blanks are ignored and an IMEI the user has no vehicle for is simply not listed. Every value of the record is ' +
    "text or null, as the spec's records are.",
  input: GetVehiclesInput,
  output: GetVehiclesOutput,
  examples: {
    request: { filter: '356307042441013,356307042441021', limit: 100, cursor: '' },
    response: {
      filter: '356307042441013,356307042441021',
      cnt: 2,
      vehicles: [
        {
          ...TRUCK_01,
          veh_make: 'Isuzu',
          veh_model: 'FTR 850',
          veh_model_year: '2021',
          veh_vin: 'JALFTR34HM7000123',
          start_odo: '120345',
          start_odo_date: '2026-01-15',
          start_hours: '4210',
          start_hours_date: '2026-01-15',
          licence_expire_date: '2027-03-31',
          fuel_capacity: '200',
          fuel_factor: '1',
          curent_odo: '120448.8',
          current_odo_date: '2026-11-22 23:59:03',
        },
        {
          vehicle_uid: '2',
          imei: '356307042441021',
          device_type: 'FMB920',
          config: '12',
          veh_grp: 'Deliveries',
          name: 'Van 02',
          reg_num: 'CA 234-567',
          veh_make: 'Toyota',
          veh_model: 'Quantum 2.8 GL',
          veh_model_year: '2022',
          veh_vin: 'AHTSS22P907001234',
          start_odo: '64210',
          start_odo_date: '2026-02-01',
          start_hours: '1830',
          start_hours_date: '2026-02-01',
          licence_expire_date: '2027-06-30',
          fuel_capacity: '70',
          fuel_factor: '1.02',
          curent_odo: '64292.5',
          current_odo_date: '2026-11-22 23:59:08',
        },
      ],
    },
  },
} as const satisfies OperationDeclaration;
