/**
 * SVG to PNG with resvg compiled to WebAssembly: the same bytes run on the arm64 Lambda and on an x64
 * laptop, where a native addon would need a build per platform. The module, and the Noto Sans faces
 * text is set in, load on the first render (about 100 ms), never at module init; the deployed function
 * carries these files beside its bundle (infra/api/operation-functions.ts copies RENDERER_FILES).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import { FONT_FAMILY } from '../domain/live-map/svg-map.ts';

/** Package files the renderer reads at run time, resolved like modules. */
export const RENDERER_FILES = [
  '@resvg/resvg-wasm/index_bg.wasm',
  '@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff',
  '@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff',
  '@fontsource/noto-sans/files/noto-sans-latin-ext-400-normal.woff',
  '@fontsource/noto-sans/files/noto-sans-latin-ext-700-normal.woff',
] as const;

let fonts: Promise<Uint8Array[]> | undefined;

function loadRenderer(): Promise<Uint8Array[]> {
  fonts ??= (async () => {
    const resolve = createRequire(import.meta.url).resolve;
    const [wasm, ...faces] = await Promise.all(RENDERER_FILES.map((file) => readFile(resolve(file))));
    await initWasm(wasm);
    return faces.map(sfntFromWoff);
  })();
  // A failed load (a missing file) must not stay cached as a rejected promise for the container's life.
  fonts.catch(() => {
    fonts = undefined;
  });
  return fonts;
}

/** The picture as PNG bytes. */
export async function svgToPng(svg: string): Promise<Uint8Array> {
  const fontBuffers = await loadRenderer();
  const resvg = new Resvg(svg, {
    font: { fontBuffers, defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
    shapeRendering: 2,
    textRendering: 1,
  });
  try {
    const image = resvg.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}

/**
 * WOFF 1.0 back to the TrueType/OpenType file it wraps (resvg reads only the latter): the same tables,
 * each inflated when it was stored compressed, behind a rebuilt table directory.
 */
export function sfntFromWoff(woff: Uint8Array): Uint8Array {
  const input = Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength);
  if (input.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF 1.0 font');
  const flavor = input.readUInt32BE(4);
  const count = input.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, index) => {
    const entry = 44 + index * 20;
    const offset = input.readUInt32BE(entry + 4);
    const compressed = input.readUInt32BE(entry + 8);
    const length = input.readUInt32BE(entry + 12);
    const stored = input.subarray(offset, offset + compressed);
    return {
      tag: input.readUInt32BE(entry),
      checksum: input.readUInt32BE(entry + 16),
      data: compressed < length ? inflateSync(stored) : stored,
    };
  });
  const headerSize = 12 + count * 16;
  const padded = (size: number): number => (size + 3) & ~3;
  const output = Buffer.alloc(headerSize + tables.reduce((sum, table) => sum + padded(table.data.length), 0));
  const power = 2 ** Math.floor(Math.log2(count));
  output.writeUInt32BE(flavor, 0);
  output.writeUInt16BE(count, 4);
  output.writeUInt16BE(power * 16, 6);
  output.writeUInt16BE(Math.log2(power), 8);
  output.writeUInt16BE(count * 16 - power * 16, 10);
  let at = headerSize;
  tables.forEach((table, index) => {
    const record = 12 + index * 16;
    output.writeUInt32BE(table.tag, record);
    output.writeUInt32BE(table.checksum, record + 4);
    output.writeUInt32BE(at, record + 8);
    output.writeUInt32BE(table.data.length, record + 12);
    table.data.copy(output, at);
    at += padded(table.data.length);
  });
  return output;
}
