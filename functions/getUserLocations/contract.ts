import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { UserLocationRecord } from '../../shared/contracts/user-locations.ts';

const GetUserLocationsInput = v.object({});

const GetUserLocationsOutput = v.object({ cnt: integerField, locations: v.array(UserLocationRecord) });

export const contract = { input: GetUserLocationsInput, output: GetUserLocationsOutput } satisfies OperationContract;
