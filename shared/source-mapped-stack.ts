/**
 * A logged error's stack in the TypeScript sources, mapped when it is logged. A deployed function is a minified bundle
 * with its source map beside it (infra/api/operation-functions.ts); `--enable-source-maps` would have Node read and
 * parse that map at every cold start (4–5 ms of CPU, docs/operations.md), for the few containers that ever log an error.
 * Here the map is read at a container's first logged error instead, with Node's own SourceMap, and kept.
 */
import { createRequire, SourceMap, type SourceOrigin } from 'node:module';
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

/** Whether the map found where a generated place came from (findOrigin answers `{}` where it did not). */
const isOrigin = (origin: SourceOrigin | object): origin is SourceOrigin => 'fileName' in origin;

/** A frame's place: its generated file, line and column, and the text that says them. */
interface FramePlace {
  text: string;
  file: string;
  line: number;
  column: number;
}

function placeOf(frame: string | undefined): FramePlace | undefined {
  const [text, file, line, column] = FRAME_PLACE.exec(frame ?? '') ?? [];
  return text && file ? { text, file, line: Number(line), column: Number(column) } : undefined;
}

/**
 * One frame line with its place in the sources, as `--enable-source-maps` writes it; the line as it is where there is
 * none. A minified function's name becomes the one its caller called it by (the caller's frame, the next one, in the
 * same file), which is where Node's own mapping finds it when it has no other.
 */
function mappedFrame(frame: string, caller: string | undefined): string {
  const place = placeOf(frame);
  const found = place ? mapOf(place.file) : null;
  if (!place || !found) return frame;
  const origin = found.map.findOrigin(place.line, place.column);
  if (!isOrigin(origin)) return frame;
  const source = new URL(origin.fileName, found.url).pathname;
  const mapped = frame.replace(place.text, `${source}:${origin.lineNumber}:${origin.columnNumber}`);
  const call = placeOf(caller);
  const calledAs = call?.file === place.file ? found.map.findOrigin(call.line, call.column) : undefined;
  const name = calledAs && isOrigin(calledAs) ? calledAs.name : undefined;
  return name ? mapped.replace(/(?<=at (?:async )?)[\w$.<>]+(?= \()/, name) : mapped;
}

/** The stack with each frame of a bundled file in its TypeScript source. */
export function sourceMappedStack(stack: string): string {
  const frames = stack.split('\n');
  return frames.map((frame, n) => mappedFrame(frame, frames[n + 1])).join('\n');
}

/** Errors whose stacks are mapped already: an error logged twice is mapped once. */
const mapped = new WeakSet<Error>();

/** The error with its stack, and its cause's, mapped in place: whatever logs it later shows the sources too. */
export function withSourceMappedStack<E>(error: E): E {
  if (!(error instanceof Error) || mapped.has(error)) return error;
  mapped.add(error);
  if (typeof error.stack === 'string') error.stack = sourceMappedStack(error.stack);
  withSourceMappedStack(error.cause);
  return error;
}
