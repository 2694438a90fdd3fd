import * as v from 'valibot';
import { type InputSchema, parameterNamesOf } from '../contracts/operation.ts';
import { BadRequest } from '../errors.ts';
import type { HttpMiddleware, HttpRequest } from './types.ts';

/**
 * Validates the merged parameters against the operation's valibot object schema.
 * Every declared key is passed explicitly (undefined when absent) so a missing parameter fails
 * with its own field's message; entries are declared in spec order and the first failure answers.
 */
export const validateInput = (schema: InputSchema): HttpMiddleware => {
  const validateInputBefore = (request: HttpRequest): void => {
    if (request.internal.bodyError) throw request.internal.bodyError;
    request.internal.input = parseInput(schema, request.internal.params ?? {});
  };
  return { name: 'validateInput', before: validateInputBefore };
};

export function parseInput<S extends InputSchema>(schema: S, params: Record<string, unknown>): v.InferOutput<S> {
  const declared = Object.fromEntries(parameterNamesOf(schema).map((key) => [key, params[key]]));
  const result = v.safeParse(schema, declared, { abortEarly: true });
  if (!result.success) throw new BadRequest(result.issues[0].message);
  return result.output;
}
