import * as v from 'valibot';
import { TRUCK_01 } from '../../shared/contracts/demo-records.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { imeiFilter, LiveRecord } from '../../shared/contracts/vehicles.ts';

const GetLiveDataInput = v.object({ filter: imeiFilter, limit: pageLimit(), cursor: pageCursor });

const GetLiveDataOutput = v.object({ filter: v.string(), cnt: integerField, vehicles: v.array(LiveRecord), next_cursor: nextCursorField });

export const contract = {
  name: 'getLiveData',
  method: 'GET',
  area: 'vehicles',
  tableActions: ['Query', 'BatchGetItem'],
  summary: 'Last known position and telemetry per vehicle',
  description:
    'The last known position and telemetry of each linked vehicle (or of the IMEIs in `filter`), as the positions pipeline last ' +
    "recorded them. Times are in the user's GMT offset; a vehicle that never reported has null position fields.",
  input: GetLiveDataInput,
  output: GetLiveDataOutput,
  examples: {
    request: { filter: '356307042441013', limit: 100, cursor: '' },
    response: {
      filter: '356307042441013',
      cnt: 1,
      vehicles: [
        {
          ...TRUCK_01,
          last_response: '2026-11-23 03:29:58',
          gps_datetime: '2026-11-22 23:59:03',
          latitude: '-25.99919',
          longitude: '28.126301',
          speed: '0',
          heading: '31',
          driver_id: null,
          supp_volt: '12.65',
          int_batt_volt: '4.1',
          int_temp: '28',
          ext_temp: null,
          fuel_value: '196.3',
          fuel_percent: '98.2',
        },
      ],
    },
  },
} as const satisfies OperationDeclaration;
