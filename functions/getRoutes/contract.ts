import * as v from 'valibot';
import { RouteSummary } from '../../shared/contracts/routes.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';

const GetRoutesInput = v.object({});

const GetRoutesOutput = v.object({ cnt: integerField, routes: v.array(RouteSummary) });

export const contract = { input: GetRoutesInput, output: GetRoutesOutput } satisfies OperationContract;
