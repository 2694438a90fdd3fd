import { describe, expect, it } from 'vitest';
import {
  createCanvas, fillCircle, fillPolygon, parseColor, pixelAt, type Rgb, strokeCircle, strokeLine,
} from '../../../shared/domain/live-map/canvas.ts';
import { drawText, glyph, GLYPH_HEIGHT, GLYPH_WIDTH, textSize } from '../../../shared/domain/live-map/font.ts';

const WHITE: Rgb = [255, 255, 255];
const RED: Rgb = [255, 0, 0];

const inked = (canvas: ReturnType<typeof createCanvas>): number => {
  let count = 0;
  for (let y = 0; y < canvas.height; y++) for (let x = 0; x < canvas.width; x++) if (pixelAt(canvas, x, y)[1] !== 255) count++;
  return count;
};

describe('the canvas', () => {
  it('starts as the background colour', () => {
    const canvas = createCanvas(3, 2, [1, 2, 3]);
    expect(pixelAt(canvas, 2, 1)).toEqual([1, 2, 3]);
    expect(canvas.data.length).toBe(3 * 2 * 4);
  });

  it('fills a circle symmetric around a pixel centre', () => {
    const canvas = createCanvas(11, 11, WHITE);
    fillCircle(canvas, { x: 5.5, y: 5.5 }, 2, RED);
    expect(pixelAt(canvas, 5, 5)).toEqual(RED);
    expect([pixelAt(canvas, 3, 5), pixelAt(canvas, 7, 5), pixelAt(canvas, 5, 3), pixelAt(canvas, 5, 7)]).toEqual([RED, RED, RED, RED]);
    expect(pixelAt(canvas, 2, 5)).toEqual(WHITE);
    expect(inked(canvas)).toBe(13);
  });

  it('mixes a translucent colour over what is there', () => {
    const canvas = createCanvas(1, 1, WHITE);
    fillCircle(canvas, { x: 0.5, y: 0.5 }, 1, [0, 0, 0], 0.5);
    expect(pixelAt(canvas, 0, 0)).toEqual([128, 128, 128]);
  });

  it('strokes only the ring of a circle, not its inside', () => {
    const canvas = createCanvas(41, 41, WHITE);
    strokeCircle(canvas, { x: 20.5, y: 20.5 }, 15, 2, RED);
    expect(pixelAt(canvas, 20, 20)).toEqual(WHITE);
    expect(pixelAt(canvas, 35, 20)).toEqual(RED);
    expect(pixelAt(canvas, 20, 5)).toEqual(RED);
  });

  it('draws shapes far larger than the picture in time, clipped to it', () => {
    const canvas = createCanvas(64, 64, WHITE);
    // CPU time, not wall time: other processes on a busy machine must not fail this test; an unclipped
    // stroke walks 2e9 pixels, which takes seconds of CPU.
    const started = process.cpuUsage();
    strokeCircle(canvas, { x: 32, y: 1e9 }, 1e9 - 10, 2, RED);
    strokeLine(canvas, { x: -1e9, y: -1e9 }, { x: 1e9, y: 1e9 }, RED);
    fillPolygon(canvas, [{ x: -1e9, y: 40 }, { x: 1e9, y: 40 }, { x: 0, y: 1e9 }], RED, 1);
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).toBeLessThan(500);
    expect(pixelAt(canvas, 10, 10)).toEqual(RED);
    expect(pixelAt(canvas, 32, 9)).toEqual(RED);
    expect(pixelAt(canvas, 5, 50)).toEqual(RED);
    expect(pixelAt(canvas, 50, 20)).toEqual(WHITE);
  });

  it('fills a polygon but not the notch of a concave one', () => {
    const canvas = createCanvas(20, 20, WHITE);
    const lShape = [{ x: 0, y: 0 }, { x: 20, y: 0 }, { x: 20, y: 10 }, { x: 10, y: 10 }, { x: 10, y: 20 }, { x: 0, y: 20 }];
    fillPolygon(canvas, lShape, RED);
    expect(pixelAt(canvas, 5, 15)).toEqual(RED);
    expect(pixelAt(canvas, 15, 5)).toEqual(RED);
    expect(pixelAt(canvas, 15, 15)).toEqual(WHITE);
    expect(inked(canvas)).toBe(300);
  });

  it('reads location colours by name and as hex, and nothing else', () => {
    expect(parseColor('Blue')).toEqual([37, 99, 235]);
    expect(parseColor('#ff8000')).toEqual([255, 128, 0]);
    expect(parseColor('0f0')).toEqual([0, 255, 0]);
    expect(parseColor('sparkly')).toBeUndefined();
  });
});

describe('the bitmap font', () => {
  it('has 5×7 glyphs and draws lower case as upper case', () => {
    expect(glyph('A')).toHaveLength(GLYPH_HEIGHT);
    expect(glyph('A').every((row) => row.length === GLYPH_WIDTH)).toBe(true);
    expect(glyph('q')).toEqual(glyph('Q'));
  });

  it('draws characters it has no glyph for as a question mark', () => {
    expect(glyph('é')).toEqual(glyph('?'));
    expect(glyph('🚚')).toEqual(glyph('?'));
  });

  it('sizes text by characters, with one blank column between them', () => {
    expect(textSize('AB', 1)).toEqual({ width: 11, height: 7 });
    expect(textSize('AB', 2)).toEqual({ width: 22, height: 14 });
    expect(textSize('', 2).width).toBe(0);
  });

  it('paints exactly the glyph\'s ink', () => {
    const canvas = createCanvas(GLYPH_WIDTH, GLYPH_HEIGHT, WHITE);
    drawText(canvas, 'I', 0, 0, RED);
    const ink = glyph('I').flat().filter(Boolean).length;
    expect(inked(canvas)).toBe(ink);
    expect(pixelAt(canvas, 2, 3)).toEqual(RED);
    expect(pixelAt(canvas, 0, 3)).toEqual(WHITE);
  });
});
