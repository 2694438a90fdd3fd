import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { requiredInteger } from '../../shared/contracts/primitives.ts';
import { UserLocationRecord } from '../../shared/contracts/user-locations.ts';

const GetUserLocationInput = v.object({ user_location_uid: requiredInteger('user_location_uid') });

const GetUserLocationOutput = v.object({ location: UserLocationRecord });

export const contract = { input: GetUserLocationInput, output: GetUserLocationOutput } satisfies OperationContract;
