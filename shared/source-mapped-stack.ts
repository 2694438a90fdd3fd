/**
 * A logged error's stack in the TypeScript sources, mapped when it is logged. A deployed function is a minified bundle
 * with its source map beside it (infra/api/operation-functions.ts); `--enable-source-maps` would have Node read and
 * parse that map at every cold start (4–5 ms of CPU, docs/operations.md), for the few containers that ever log an error.
 * Here the map is read at a container's first logged error instead, with Node's own SourceMap, and kept.
 */
import { createRequire, SourceMap } from 'node:module';
import { pathToFileURL } from 'node:url';

/** A stack frame's place at the end of its line: `(file:///var/task/index.mjs:1:2345)` or `at /var/task/index.mjs:1:2345`. */
const FRAME_PLACE = /(?<=\(|at )((?:file:\/\/)?\/[^\s()]+):(\d+):(\d+)(?=\)?$)/;

/** Each generated file's map, or null where it has none (the sources run as they are, in tests and locally). */
const maps = new Map<string, { map: SourceMap; url: string } | null>();

function mapOf(file: string): { map: SourceMap; url: string } | null {
  let found = maps.get(file);
  if (found === undefined) {
    const path = file.startsWith('file://') ? new URL(file).pathname : file;
    try {
      // required, not imported: node:fs's module facade would cost every cold start what only an error needs
      const { readFileSync } = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
      found = { map: new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8'))), url: pathToFileURL(`${path}.map`).href };
    } catch {
      found = null;
    }
    maps.set(file, found);
  }
  return found;
}

/** One frame line with its place in the sources, as `--enable-source-maps` writes it; the line as it is where there is none. */
function mappedFrame(line: string): string {
  const [place, file, lineNumber, columnNumber] = FRAME_PLACE.exec(line) ?? [];
  const found = place && file ? mapOf(file) : null;
  if (!found) return line;
  const origin = found.map.findOrigin(Number(lineNumber), Number(columnNumber));
  if (!('fileName' in origin)) return line;
  const source = new URL(origin.fileName, found.url).pathname;
  return line.replace(place as string, `${source}:${origin.lineNumber}:${origin.columnNumber}`);
}

/** The stack with each frame of a bundled file in its TypeScript source. */
export function sourceMappedStack(stack: string): string {
  return stack.split('\n').map(mappedFrame).join('\n');
}

/** The error with its stack (and its cause's) mapped once, in place: it is logged, and mapped, as its source says. */
export function withSourceMappedStack<E>(error: E): E {
  if (!(error instanceof Error) || mapped.has(error)) return error;
  mapped.add(error);
  if (typeof error.stack === 'string') error.stack = sourceMappedStack(error.stack);
  withSourceMappedStack(error.cause);
  return error;
}
const mapped = new WeakSet<Error>();
