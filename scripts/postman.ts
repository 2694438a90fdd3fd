/**
 * Writes a Postman collection of the API (`npm run postman [-- <file> [<server url>]]`, by default
 * docs/fleet.postman_collection.json for http://127.0.0.1:3000): the OpenAPI document through
 * openapi-to-postmanv2, as Postman's own import makes it with "Parameter generation: Example" and "Folder
 * organization: Tags", plus the `apiKey` collection variable the header auth refers to. Set apiKey (the key
 * `npm start` prints) and the collection's operation folders run green, in order, against a fresh `npm start`.
 * The document's webhooks become a last folder of sample deliveries, POSTed to your receiver at `webhookUrl`.
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

interface PostmanRequest {
  name: string;
  request: { url: unknown; [field: string]: unknown };
}

export interface PostmanCollection {
  info: { name: string };
  item: { name: string; description?: unknown; item?: PostmanRequest[] }[];
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
const IMPORT_OPTIONS = { folderStrategy: 'Tags', parametersResolution: 'Example', includeWebhooks: true };

/** The folder the document's webhooks become, and the variable naming the receiver its requests go to. */
export const DELIVERIES_FOLDER = 'webhook deliveries';
const RECEIVER_VARIABLE = { key: 'webhookUrl', value: 'http://localhost:8080/fleet-events' };

export function postmanCollection(
  document: OpenApiDocument,
  options: Record<string, unknown> = IMPORT_OPTIONS,
): Promise<PostmanCollection> {
  return new Promise((resolve, reject) => {
    converter.convertV2({ type: 'json', data: structuredClone(document) }, options, (error, result) => {
      const collection = result?.output[0]?.data;
      if (error || !result.result || !collection) return reject(error ?? new Error(`openapi-to-postmanv2: ${result.reason}`));
      const variables = collection.variable.filter(({ key }) => key !== 'apiKey');
      // every folder but the webhooks' is one of the document's tags
      const deliveries = collection.item.find(({ name }) => !document.tags.some((tag) => tag.name === name));
      resolve({
        ...collection,
        item: collection.item.map((folder) => (folder === deliveries ? deliveriesFolder(folder) : folder)),
        variable: [...variables, { key: 'apiKey', value: '' }, ...(deliveries ? [RECEIVER_VARIABLE] : [])],
      });
    });
  });
}

/**
 * The converter points each webhook at the API's base URL: its requests go to your receiver instead, with the
 * example event of their type. Their signatures are the document's examples and do not verify: testWebhook and
 * `npm run events -- listen` send signed ones.
 */
function deliveriesFolder(folder: PostmanCollection['item'][number]): PostmanCollection['item'][number] {
  return {
    ...folder,
    name: DELIVERIES_FOLDER,
    description:
      `Each event type's delivery as your endpoint receives it, POSTed to {{${RECEIVER_VARIABLE.key}}}: to try a receiver's ` +
      'parsing. Their signatures do not verify; testWebhook sends a signed delivery.',
    item: (folder.item ?? []).map((item) => ({ ...item, request: { ...item.request, url: `{{${RECEIVER_VARIABLE.key}}}` } })),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file = 'docs/fleet.postman_collection.json', serverUrl] = process.argv.slice(2);
  const collection = await postmanCollection(openApiDocument(operations, { serverUrl }));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(collection, null, 2)}\n`);
  console.log(`${file}: ${collection.item.length} folders; set the collection variable apiKey to your key`);
}
