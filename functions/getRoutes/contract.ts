import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { RouteSummary } from '../../shared/contracts/routes.ts';

const GetRoutesInput = v.object({});

const GetRoutesOutput = v.object({ cnt: integerField, routes: v.array(RouteSummary) });

export const contract = { input: GetRoutesInput, output: GetRoutesOutput } satisfies OperationContract;
