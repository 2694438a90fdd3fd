import * as v from 'valibot';
import { UserLocationRecord } from '../../shared/contracts/user-locations.ts';
import { requiredInteger } from '../../shared/contracts/primitives.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';

const GetUserLocationInput = v.object({ user_location_uid: requiredInteger('user_location_uid') });

const GetUserLocationOutput = v.object({ location: UserLocationRecord });

export const contract = { input: GetUserLocationInput, output: GetUserLocationOutput } satisfies OperationContract;
