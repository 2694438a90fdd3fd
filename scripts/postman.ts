/**
 * Writes a Postman collection of the API (`npm run postman [-- <file> [<server url>]]`, by default
 * docs/fleet.postman_collection.json for http://127.0.0.1:3000): the OpenAPI document through
 * openapi-to-postmanv2, as Postman's own import makes it with "Parameter generation: Example" and "Folder
 * organization: Tags", plus the `apiKey` collection variable the header auth refers to. Set apiKey (the key
 * `npm start` prints) and the collection runs green, in order, against a fresh `npm start`.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { operations } from '../functions/registry.ts';
import { type OpenApiDocument, openApiDocument } from '../shared/openapi.ts';

interface ConversionResult {
  result: boolean;
  reason?: string;
  output: { data: PostmanCollection }[];
}

export interface PostmanCollection {
  info: { name: string };
  item: { name: string; item?: unknown[] }[];
  auth: { type: string };
  variable: { key: string; value: string }[];
}

interface Converter {
  convertV2(
    input: { type: 'json'; data: unknown },
    options: Record<string, unknown>,
    done: (error: Error | null, result: ConversionResult) => void,
  ): void;
}

const converter = createRequire(import.meta.url)('openapi-to-postmanv2') as Converter;

/** Postman's import with these settings; other options (`{}`: its defaults) are for checking what integrators get. */
const IMPORT_OPTIONS = { folderStrategy: 'Tags', parametersResolution: 'Example' };

export function postmanCollection(
  document: OpenApiDocument,
  options: Record<string, unknown> = IMPORT_OPTIONS,
): Promise<PostmanCollection> {
  return new Promise((resolve, reject) => {
    converter.convertV2({ type: 'json', data: structuredClone(document) }, options, (error, result) => {
      const collection = result?.output[0]?.data;
      if (error || !result.result || !collection) return reject(error ?? new Error(`openapi-to-postmanv2: ${result.reason}`));
      const variables = collection.variable.filter(({ key }) => key !== 'apiKey');
      resolve({ ...collection, variable: [...variables, { key: 'apiKey', value: '' }] });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file = 'docs/fleet.postman_collection.json', serverUrl] = process.argv.slice(2);
  const collection = await postmanCollection(openApiDocument(operations, { serverUrl }));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(collection, null, 2)}\n`);
  console.log(`${file}: ${collection.item.length} folders; set the collection variable apiKey to your key`);
}
