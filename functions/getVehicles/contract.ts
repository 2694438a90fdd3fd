import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
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

export const contract = { input: GetVehiclesInput, output: GetVehiclesOutput } satisfies OperationContract;
