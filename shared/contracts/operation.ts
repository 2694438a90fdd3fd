/**
 * What an operation declares about its requests and answers. Each operation keeps its contract in
 * functions/<name>/contract.ts, a module without side effects that its handler and the OpenAPI document
 * both import (shared/contracts/operations.ts collects them for the document).
 */
import type * as v from 'valibot';

type ParameterObject = v.ObjectSchema<v.ObjectEntries, undefined>;
/** An object of parameters, optionally piped into cross-field checks (e.g. start_date ≤ end_date). */
export type InputSchema =
  | ParameterObject
  // biome-ignore lint/suspicious/noExplicitAny: a pipe's items are typed by what flows through them, which differs per operation
  | v.SchemaWithPipe<readonly [ParameterObject, ...v.PipeItem<any, any, v.BaseIssue<unknown>>[]]>;

/** The parameters an input schema declares, in the spec's order (the validate middleware passes each one). */
export const parameterNamesOf = (schema: InputSchema): string[] => Object.keys('pipe' in schema ? schema.pipe[0].entries : schema.entries);

/** The fields a success adds to the envelope. */
export type OutputSchema = v.ObjectSchema<v.ObjectEntries, undefined>;
/** A success that is not JSON (getLiveMap's PNG). */
export interface BinaryOutput {
  readonly mediaType: string;
}

/**
 * 'params': a JSON body is an object of parameters (most operations).
 * 'payload': the body is a document the handler reads itself (job cards), so bad JSON is its call.
 */
export type JsonBody = 'params' | 'payload';

export interface OperationContract {
  readonly input: InputSchema;
  /** what a success answers: types the handler and makes the OpenAPI document; answers are not validated at run time */
  readonly output: OutputSchema | BinaryOutput;
  readonly jsonBody?: JsonBody;
}
