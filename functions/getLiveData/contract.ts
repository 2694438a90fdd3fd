import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { imeiFilter, LiveRecord } from '../../shared/contracts/vehicles.ts';

const GetLiveDataInput = v.object({ filter: imeiFilter });

const GetLiveDataOutput = v.object({ filter: v.string(), cnt: integerField, vehicles: v.array(LiveRecord) });

export const contract = { input: GetLiveDataInput, output: GetLiveDataOutput } satisfies OperationContract;
