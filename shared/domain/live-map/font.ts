/**
 * A 5×7 bitmap font for the schematic map's labels: A–Z (lower case is drawn as upper case), 0–9 and
 * the punctuation vehicle names tend to carry. Anything else is drawn as '?'. Each glyph is seven rows
 * of five pixels, top to bottom, 1 = ink.
 */
import { type Canvas, paint, type Rgb } from './canvas.ts';

export const GLYPH_WIDTH = 5;
export const GLYPH_HEIGHT = 7;
/** one blank column between glyphs */
const ADVANCE = GLYPH_WIDTH + 1;

const GLYPHS: Record<string, string> = {
  A: '01110 10001 10001 11111 10001 10001 10001',
  B: '11110 10001 10001 11110 10001 10001 11110',
  C: '01110 10001 10000 10000 10000 10001 01110',
  D: '11100 10010 10001 10001 10001 10010 11100',
  E: '11111 10000 10000 11110 10000 10000 11111',
  F: '11111 10000 10000 11110 10000 10000 10000',
  G: '01110 10001 10000 10111 10001 10001 01111',
  H: '10001 10001 10001 11111 10001 10001 10001',
  I: '01110 00100 00100 00100 00100 00100 01110',
  J: '00111 00010 00010 00010 00010 10010 01100',
  K: '10001 10010 10100 11000 10100 10010 10001',
  L: '10000 10000 10000 10000 10000 10000 11111',
  M: '10001 11011 10101 10101 10001 10001 10001',
  N: '10001 10001 11001 10101 10011 10001 10001',
  O: '01110 10001 10001 10001 10001 10001 01110',
  P: '11110 10001 10001 11110 10000 10000 10000',
  Q: '01110 10001 10001 10001 10101 10010 01101',
  R: '11110 10001 10001 11110 10100 10010 10001',
  S: '01111 10000 10000 01110 00001 00001 11110',
  T: '11111 00100 00100 00100 00100 00100 00100',
  U: '10001 10001 10001 10001 10001 10001 01110',
  V: '10001 10001 10001 10001 10001 01010 00100',
  W: '10001 10001 10001 10101 10101 10101 01010',
  X: '10001 10001 01010 00100 01010 10001 10001',
  Y: '10001 10001 10001 01010 00100 00100 00100',
  Z: '11111 00001 00010 00100 01000 10000 11111',
  0: '01110 10001 10011 10101 11001 10001 01110',
  1: '00100 01100 00100 00100 00100 00100 01110',
  2: '01110 10001 00001 00010 00100 01000 11111',
  3: '11111 00010 00100 00010 00001 10001 01110',
  4: '00010 00110 01010 10010 11111 00010 00010',
  5: '11111 10000 11110 00001 00001 10001 01110',
  6: '00110 01000 10000 11110 10001 10001 01110',
  7: '11111 00001 00010 00100 01000 01000 01000',
  8: '01110 10001 10001 01110 10001 10001 01110',
  9: '01110 10001 10001 01111 00001 00010 01100',
  ' ': '00000 00000 00000 00000 00000 00000 00000',
  '-': '00000 00000 00000 11111 00000 00000 00000',
  '.': '00000 00000 00000 00000 00000 01100 01100',
  ',': '00000 00000 00000 00000 01100 00100 01000',
  _: '00000 00000 00000 00000 00000 00000 11111',
  '/': '00000 00001 00010 00100 01000 10000 00000',
  '(': '00010 00100 01000 01000 01000 00100 00010',
  ')': '01000 00100 00010 00010 00010 00100 01000',
  '#': '01010 01010 11111 01010 11111 01010 01010',
  ':': '00000 01100 01100 00000 01100 01100 00000',
  "'": '01100 00100 01000 00000 00000 00000 00000',
  '&': '01100 10010 10100 01000 10101 10010 01101',
  '+': '00000 00100 00100 11111 00100 00100 00000',
  '?': '01110 10001 00001 00010 00100 00000 00100',
};

/** The glyph's rows as booleans; lower case maps to upper case, unknown characters to '?'. */
export function glyph(character: string): boolean[][] {
  const rows = GLYPHS[character.toUpperCase()] ?? (GLYPHS['?'] as string);
  return rows.split(' ').map((row) => [...row].map((bit) => bit === '1'));
}

/** Width and height in pixels of a text drawn at this scale (each font pixel a scale × scale square). */
export function textSize(text: string, scale: number): { width: number; height: number } {
  const count = [...text].length;
  return { width: count === 0 ? 0 : (count * ADVANCE - 1) * scale, height: GLYPH_HEIGHT * scale };
}

/** Draws the text with its top-left corner at (x, y). */
export function drawText(canvas: Canvas, text: string, x: number, y: number, color: Rgb, scale = 1): void {
  [...text].forEach((character, index) => {
    glyph(character).forEach((row, rowIndex) =>
      row.forEach((ink, column) => {
        if (!ink) return;
        const left = x + (index * ADVANCE + column) * scale;
        const top = y + rowIndex * scale;
        for (let dy = 0; dy < scale; dy++) for (let dx = 0; dx < scale; dx++) paint(canvas, left + dx, top + dy, color);
      }),
    );
  });
}
