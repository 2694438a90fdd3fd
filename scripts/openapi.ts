/**
 * Writes the OpenAPI document (`npm run openapi [-- <file> [<server url>]]`, by default docs/openapi.json for
 * http://127.0.0.1:3000). The document is made from the registry and the handlers' schemas whenever it is
 * needed, so the file is not kept in git; `npm start` serves the same at /api/openapi.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openApiDocument } from '../shared/openapi.ts';

const [file = 'docs/openapi.json', serverUrl] = process.argv.slice(2);
const document = openApiDocument({ serverUrl });
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
console.log(`${file}: OpenAPI ${document.openapi}, ${Object.keys(document.paths).length} operations, server ${document.servers[0]?.url}`);
