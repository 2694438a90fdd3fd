/** The speed chart beside the replay: an SVG line of speed over the trip's time, a cursor, and the trip's events as ticks. */
const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 600;
const HEIGHT = 160;
const PAD = 28;

const svg = <K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>): SVGElementTagNameMap[K] => {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
};

export interface SpeedChart {
  element: SVGSVGElement;
  moveCursor(time: number): void;
}

/** samples: [time ms, speed km/h]; marks: [time ms, label]. */
export function speedChart(samples: [number, number][], marks: [number, string][]): SpeedChart {
  const first = samples[0]?.[0] ?? 0;
  const last = samples.at(-1)?.[0] ?? first + 1;
  const top = Math.max(10, ...samples.map(([, speed]) => speed));
  const x = (time: number) => PAD + ((time - first) / Math.max(1, last - first)) * (WIDTH - 2 * PAD);
  const y = (speed: number) => HEIGHT - PAD + -(speed / top) * (HEIGHT - 2 * PAD);
  const element = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart', role: 'img' });
  element.setAttribute('aria-label', `Speed over the trip, up to ${Math.round(top)} km/h`);
  element.append(
    svg('line', { x1: PAD, y1: HEIGHT - PAD, x2: WIDTH - PAD, y2: HEIGHT - PAD, class: 'axis' }),
    svg('line', { x1: PAD, y1: PAD, x2: PAD, y2: HEIGHT - PAD, class: 'axis' }),
  );
  const topLabel = svg('text', { x: 2, y: PAD + 4, class: 'tick' });
  topLabel.textContent = `${Math.round(top)}`;
  const unit = svg('text', { x: 2, y: HEIGHT - PAD + 4, class: 'tick' });
  unit.textContent = 'km/h';
  element.append(topLabel, unit);
  for (const [time, label] of marks) {
    const tick = svg('line', { x1: x(time), y1: PAD, x2: x(time), y2: HEIGHT - PAD, class: 'event-tick' });
    const title = svg('title', {});
    title.textContent = label;
    tick.append(title);
    element.append(tick);
  }
  element.append(
    svg('polyline', { points: samples.map(([time, speed]) => `${x(time).toFixed(1)},${y(speed).toFixed(1)}`).join(' '), class: 'speed' }),
  );
  const cursor = svg('line', { x1: PAD, y1: PAD - 6, x2: PAD, y2: HEIGHT - PAD, class: 'cursor' });
  element.append(cursor);
  return {
    element,
    moveCursor: (time) => {
      cursor.setAttribute('x1', String(x(time)));
      cursor.setAttribute('x2', String(x(time)));
    },
  };
}
