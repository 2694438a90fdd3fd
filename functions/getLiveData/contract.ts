import * as v from 'valibot';
import { LiveRecord } from '../../shared/contracts/vehicles.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { imeiFilter } from '../../shared/contracts/vehicles.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';

const GetLiveDataInput = v.object({ filter: imeiFilter });

const GetLiveDataOutput = v.object({ filter: v.string(), cnt: integerField, vehicles: v.array(LiveRecord) });

export const contract = { input: GetLiveDataInput, output: GetLiveDataOutput } satisfies OperationContract;
