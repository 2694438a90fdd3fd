/**
 * Writes the OpenAPI document (`npm run openapi [-- <file> [<server url>]]`, by default docs/openapi.json for
 * http://127.0.0.1:3000). The document is made from the registry and the handlers' schemas whenever it is
 * needed, so the file is not kept in git; `npm start` serves the same at /api/openapi.json.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { operations } from '../functions/registry.ts';
import { openApiDocument } from '../shared/openapi.ts';
import { runScript, UsageError, userPath, writtenNote } from './cli.ts';

await runScript({
  usage: `
npm run openapi -- [file] [server url]

Writes the OpenAPI document (default docs/openapi.json, not kept in git; a relative file is written in the
folder you run npm in) for the server url (default http://127.0.0.1:3000).`,
  options: {},
  async run({ positionals }) {
    const [file, serverUrl, extra] = positionals;
    if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}; see --help`);
    if (serverUrl !== undefined && !URL.canParse(serverUrl)) throw new UsageError(`not a URL: ${serverUrl}`);
    const path = file === undefined ? 'docs/openapi.json' : userPath(file);
    const document = openApiDocument(operations, { serverUrl });
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
    console.log(
      `${writtenNote(path, false)}: OpenAPI ${document.openapi}, ` +
        `${Object.keys(document.paths).length} operations, server ${document.servers[0]?.url}`,
    );
  },
});
