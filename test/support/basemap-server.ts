/**
 * A basemap on another origin than the console's (127.0.0.1, a port of its own), as Amazon Location's is: a MapLibre
 * style naming one raster source, its tiles a tiny PNG, answered with CORS as a map service answers. It records the
 * paths it was asked for, so a test can see the map reached it.
 */
import { createServer } from 'node:http';
import { type Listening, listenOnLoopback } from './loopback.ts';

export interface BasemapServer extends Listening {
  /** the style's URL: what CONSOLE_MAP_STYLE names */
  styleUrl: string;
  /** the paths requested so far, in order */
  requested: string[];
}

/** One 1×1 pixel, sea blue. */
const TILE_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const styleOf = (origin: string) => ({
  version: 8,
  name: 'Test basemap',
  sources: { tiles: { type: 'raster', tiles: [`${origin}/tiles/{z}/{x}/{y}.png`], tileSize: 256, maxzoom: 14 } },
  layers: [{ id: 'tiles', type: 'raster', source: 'tiles' }],
});

export async function givenBasemapServer(): Promise<BasemapServer> {
  const requested: string[] = [];
  let origin = '';
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    requested.push(path);
    const cors = { 'Access-Control-Allow-Origin': '*' };
    if (path === '/style.json') res.writeHead(200, { ...cors, 'Content-Type': 'application/json' }).end(JSON.stringify(styleOf(origin)));
    else if (/^\/tiles\/\d+\/\d+\/\d+\.png$/.test(path)) res.writeHead(200, { ...cors, 'Content-Type': 'image/png' }).end(TILE_PNG);
    else res.writeHead(404, cors).end();
  });
  const listening = await listenOnLoopback(server);
  origin = listening.origin;
  return { ...listening, styleUrl: `${origin}/style.json`, requested };
}
