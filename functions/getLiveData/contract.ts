import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { imeiFilter, LiveRecord } from '../../shared/contracts/vehicles.ts';

const GetLiveDataInput = v.object({ filter: imeiFilter, limit: pageLimit(), cursor: pageCursor });

const GetLiveDataOutput = v.object({ filter: v.string(), cnt: integerField, vehicles: v.array(LiveRecord), next_cursor: nextCursorField });

export const contract = { input: GetLiveDataInput, output: GetLiveDataOutput } satisfies OperationContract;
