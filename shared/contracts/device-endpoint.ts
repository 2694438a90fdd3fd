/**
 * What an HTTP device entry point declares about itself (docs/devices.md): devices call it directly, on resources
 * of its own outside /api/, authenticated by a device token instead of an api key, and it only puts records on
 * the positions stream. Each keeps its declaration in functions/<name>/contract.ts, as operations do;
 * functions/registry.ts collects them for the stack, the local server and the tests. They are not operations of
 * the API: no envelope parameters to validate, no OpenAPI entry (the devices' protocols are Traccar's).
 */
import type { HttpMethod } from './operation.ts';

export interface DeviceEndpointDeclaration {
  /** its folder functions/<name>/ and its function */
  readonly name: string;
  /** one line, for the function's description in AWS */
  readonly summary: string;
  /** the methods it answers; any other gets 405 in the envelope */
  readonly methods: readonly HttpMethod[];
  /** API Gateway resource paths; `{token}` is the device token */
  readonly resources: readonly string[];
  /** the grant it needs in AWS: PutRecords on the positions stream */
  readonly stream: 'put-records';
}
