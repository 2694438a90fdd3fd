import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';

const DeleteUserLocationInput = v.object({ user_location_uid: requiredInteger('user_location_uid') });

const DeleteUserLocationOutput = v.object({ user_location_uid: integerField });

export const contract = { input: DeleteUserLocationInput, output: DeleteUserLocationOutput } satisfies OperationContract;
