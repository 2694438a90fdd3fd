import { describe, expect, it } from 'vitest';
import { type Box, groupMarkers, type LabelRequest, overlaps, placeLabels, scaleBar } from '../../../shared/domain/live-map/layout.ts';
import type { MapVehicle } from '../../../shared/domain/live-map/live-map.ts';
import { metresPerPixel, type Viewport } from '../../../shared/domain/live-map/projection.ts';
import { liveMapSvg } from '../../../shared/domain/live-map/svg-map.ts';

const viewport: Viewport = { centre: { lat: -26, lng: 28.1 }, zoom: 13, width: 600, height: 600 };
/** metres east of the map's centre, as a longitude */
const east = (metres: number): number => 28.1 + metres / (111_320 * Math.cos((26 * Math.PI) / 180));

const vehicle = (vehicleUid: number, lng: number, lat = -26): MapVehicle => ({
  vehicleUid,
  name: `Truck ${vehicleUid}`,
  position: { lat, lng },
  gpsDatetime: '2026-11-23T06:00:00.000Z',
  heading: null,
  label: undefined,
});

describe('groupMarkers', () => {
  it('groups vehicles a few pixels apart and counts them, keeping vehicle_uid order', () => {
    const metresPerPx = metresPerPixel(-26, 13);
    const groups = groupMarkers(viewport, [vehicle(3, east(0)), vehicle(1, east(3 * metresPerPx)), vehicle(2, east(200 * metresPerPx))]);
    expect(groups.map((group) => group.vehicles.map((v) => v.vehicleUid))).toEqual([[1, 3], [2]]);
    expect(groups[0]?.at.x).toBeCloseTo(301.5, 0);
  });

  it('joins a chain of close vehicles into one group, so no two groups are closer than the grouping distance', () => {
    const metresPerPx = metresPerPixel(-26, 13);
    const chain = [0, 10, 20, 30].map((px, index) => vehicle(index + 1, east(px * metresPerPx)));
    const groups = groupMarkers(viewport, [...chain, vehicle(9, east(100 * metresPerPx))]);
    expect(groups.map((group) => group.vehicles.length)).toEqual([4, 1]);
  });

  it('keeps vehicles farther apart than the grouping distance apart', () => {
    const metresPerPx = metresPerPixel(-26, 13);
    expect(groupMarkers(viewport, [vehicle(1, east(0)), vehicle(2, east(20 * metresPerPx))])).toHaveLength(2);
  });
});

describe('placeLabels', () => {
  const frame: Box = { left: 0, top: 0, right: 600, bottom: 600 };
  const label = (text: string, x: number, y: number): LabelRequest => ({ text, anchor: { x, y }, width: 80, height: 18, offset: 10 });

  it('never lets two placed labels overlap, however crowded the anchors', () => {
    const requests = Array.from({ length: 40 }, (_, index) =>
      label(`Truck ${index}`, 300 + (index % 5) * 7, 300 + Math.floor(index / 5) * 6),
    );
    const placed = placeLabels(requests, frame);
    expect(placed.length).toBeGreaterThan(3);
    expect(placed.length).toBeLessThan(requests.length);
    for (const [index, a] of placed.entries()) {
      for (const b of placed.slice(index + 1)) expect(overlaps(a.box, b.box), `${a.text} / ${b.text}`).toBe(false);
    }
  });

  it('puts a label right of its anchor, else on another side, inside the frame and clear of obstacles', () => {
    const [right] = placeLabels([label('A', 100, 100)], frame);
    expect(right?.box).toEqual({ left: 110, top: 91, right: 190, bottom: 109 });
    const [nearEdge] = placeLabels([label('B', 590, 100)], frame);
    expect(nearEdge?.box.right).toBeLessThanOrEqual(600);
    expect(nearEdge?.box.left).toBe(500);
    const obstacle = { left: 105, top: 80, right: 200, bottom: 120 };
    const [moved] = placeLabels([label('C', 100, 100)], frame, [obstacle]);
    expect(moved && overlaps(moved.box, obstacle)).toBe(false);
  });
});

describe('scaleBar', () => {
  it('is the longest round distance that fits', () => {
    const bar = scaleBar(viewport, 120);
    expect(bar.text).toBe('2 km');
    expect(bar.length).toBeCloseTo(2000 / metresPerPixel(-26, 13), 5);
    expect(scaleBar({ ...viewport, zoom: 16 }, 120).text).toBe('200 m');
  });
});

describe('liveMapSvg', () => {
  const map = { ...viewport, centre: viewport.centre, geofences: [] };

  it('draws a group of vehicles as one marker with their count, and says in the legend how many are outside the frame', () => {
    const metresPerPx = metresPerPixel(-26, 13);
    const vehicles = [vehicle(1, east(0)), vehicle(2, east(2 * metresPerPx)), vehicle(3, east(5_000 * metresPerPx))];
    const { svg, groups, outside } = liveMapSvg({ ...map, vehicles }, { kind: 'tiles', tiles: [], attribution: '' });
    expect(groups.map((group) => group.vehicles.length)).toEqual([2, 1]);
    expect(outside).toBe(1);
    expect(svg).toContain('>2</text>');
    expect(svg).toContain('Truck 1 +1');
    expect(svg).toContain('3 vehicles');
    expect(svg).toContain('1 outside the frame');
  });

  it('escapes names, so a vehicle called <script> stays text', () => {
    const { svg } = liveMapSvg(
      { ...map, vehicles: [{ ...vehicle(1, east(0)), name: '<b>&"x"' }] },
      { kind: 'tiles', tiles: [], attribution: '' },
    );
    expect(svg).toContain('&#60;b&#62;&#38;&#34;x&#34;');
    expect(svg).not.toContain('<b>');
  });
});
