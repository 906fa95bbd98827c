import { describe, expect, it } from 'vitest';
import { decodeTile } from '../../engine/tile';
import { encodeTile } from '../../engine/tile_encode';
import type { CounterTrack, TraceSummary } from '../../protocol/api.gen';
import { EMPTY_CELL, HEAT_STOPS } from '../common/colors';
import { fixtureSummary } from '../common/testing';
import { layoutBars, layoutLights, layoutLines, lightsCellAt, lightsCells, trackLine } from './counters_layout';
import { buildModel, defaultTracks, lightColor, scaleValue, trackLabel, valuesAt } from './counters_model';

const track = (index: number, thread: number, name: string, unit: string, min: number, max: number, samples = 10): CounterTrack => ({
  index, thread, name, unit, min, max, samples,
});

/** rank 0 samples load and mem on its main thread; rank 1 samples load on both its threads. */
function counterSummary(): TraceSummary {
  return {
    ...fixtureSummary(),
    counters: [
      track(0, 0, 'load', '%', 0, 60),
      track(1, 0, 'mem', 'MiB', 10, 50),
      track(2, 2, 'load', '%', 20, 100),
      track(3, 3, 'load', '%', 5, 10),
    ],
  };
}

const measure = (s: string) => s.length * 6;

describe('counter model', () => {
  const model = buildModel(counterSummary());
  it('has a metric per counter name with its range over all its tracks', () => {
    expect(model.metrics).toEqual([
      { name: 'load', unit: '%', min: 0, max: 100, tracks: [0, 2, 3] },
      { name: 'mem', unit: 'MiB', min: 10, max: 50, tracks: [1] },
    ]);
  });
  it('makes a process one unit, or one per thread when it samples on several', () => {
    expect(model.units.map((u) => u.label)).toEqual(['rank 0', 'rank 1 · main', 'rank 1 · worker <io>']);
    expect(model.cells).toEqual([
      [0, 1],
      [2, -1],
      [3, -1],
    ]);
    expect(trackLabel(model, 3)).toBe('rank 1 · worker <io>: load');
    expect(defaultTracks(model, 0, 2)).toEqual([0, 2]);
  });
  it('ignores tracks without samples for the range', () => {
    const s = counterSummary();
    s.counters = [track(0, 0, 'x', '', 0, 0, 0), track(1, 2, 'x', '', 5, 9)];
    expect(buildModel(s).metrics[0]).toMatchObject({ min: 5, max: 9 });
  });
  it('has no units or metrics without counters', () => {
    const m = buildModel(fixtureSummary());
    expect(m.metrics).toEqual([]);
    expect(m.units).toEqual([]);
  });
});

describe('colour scale', () => {
  const m = { min: 10, max: 50 };
  it('maps the metric minimum to the coldest and the maximum to the hottest colour', () => {
    expect(lightColor(m, 10)).toBe(HEAT_STOPS[0]);
    expect(lightColor(m, 50)).toBe(HEAT_STOPS[HEAT_STOPS.length - 1]);
    expect(lightColor(m, 30)).toBe(HEAT_STOPS[3]); // the middle stop
    expect(lightColor(m, undefined)).toBe(EMPTY_CELL);
    expect(lightColor(m, 1000)).toBe(HEAT_STOPS[HEAT_STOPS.length - 1]); // clamped
    expect(lightColor({ min: 3, max: 3 }, 3)).toBe(HEAT_STOPS[0]); // never changes: cold
  });
  it('is monotonic: the hue turns from blue through yellow to red as the value grows', () => {
    /** Hue in degrees, reds past 270° counted as negative so blue → red only decreases. */
    const hue = (c: string): number => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16) / 255) as [number, number, number];
      const max = Math.max(r, g, b);
      const d = max - Math.min(r, g, b);
      let h = d === 0 ? 0 : max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
      h *= 60;
      if (h < 0) h += 360;
      return h > 270 ? h - 360 : h;
    };
    let lastT = -1;
    let lastHue = Infinity;
    expect(hue(lightColor(m, 10))).toBeGreaterThan(200); // blue
    expect(hue(lightColor(m, 50))).toBeLessThan(10); // red
    for (let v = 10; v <= 50; v += 0.25) {
      const t = scaleValue(m, v);
      expect(t).toBeGreaterThanOrEqual(lastT);
      lastT = t;
      const h = hue(lightColor(m, v));
      expect(h).toBeLessThanOrEqual(lastHue + 0.5); // rounding to 8 bits
      lastHue = h;
    }
  });
});

describe('lights matrix', () => {
  const model = buildModel(counterSummary());
  it('colours cells from the /at values; missing samples grey, missing counters none', () => {
    const values = valuesAt({ counters: [{ track: 0, value: 60, time: 5 }, { track: 1, value: 10, time: 5 }, { track: 2, value: 60, time: 7 }] });
    const cells = lightsCells(model, values);
    expect(cells[0]!.map((c) => c.color)).toEqual([lightColor({ min: 0, max: 100 }, 60), HEAT_STOPS[0]]);
    expect(cells[1]![0]).toEqual({ track: 2, value: 60, color: lightColor({ min: 0, max: 100 }, 60) });
    expect(cells[2]![0]).toEqual({ track: 3, value: undefined, color: EMPTY_CELL });
    expect(cells[1]![1]!.track).toBe(-1);
  });
  it('lays cells out after the labels and finds the one under the pointer', () => {
    const l = layoutLights(model, 600, measure);
    expect(l.left).toBe(6 * 'rank 1 · worker <io>'.length + 12);
    expect(l.cellW).toBe(140);
    expect(l.cellH).toBe(26);
    expect(lightsCellAt(l, l.left + 150, l.top + 30)).toEqual({ unit: 1, metric: 1 });
    expect(lightsCellAt(l, l.left - 1, l.top + 1)).toBeNull();
    expect(lightsCellAt(l, l.left + 1, l.top + 3 * 26 + 1)).toBeNull();
  });
});

describe('bars at the cursor', () => {
  const model = buildModel(counterSummary());
  it('draws one bar per unit with the metric, height by value over its range', () => {
    const values = new Map([
      [0, 50],
      [2, 100],
    ]);
    const b = layoutBars(model, 0, values, 464, 250);
    expect(b.lo).toBe(0);
    expect(b.hi).toBe(100);
    expect(b.bars.map((x) => x.unit)).toEqual([0, 1, 2]);
    expect(b.bars[1]!.h).toBeCloseTo(b.plot.h);
    expect(b.bars[0]!.h).toBeCloseTo(b.plot.h / 2);
    expect(b.bars[0]!.y + b.bars[0]!.h).toBeCloseTo(b.base);
    expect(b.bars[0]!.color).toBe(lightColor(model.metrics[0]!, 50));
    expect(b.bars[2]!.value).toBeUndefined();
    expect(b.bars[2]!.h).toBe(0);
    expect(b.bars[1]!.x).toBeGreaterThan(b.bars[0]!.x);
    expect(layoutBars(model, 1, values, 464, 250).bars.map((x) => x.unit)).toEqual([0]);
  });
});

describe('line graphs', () => {
  it('steps through the tile points and holds the last value to the end', () => {
    const tile = decodeTile(
      encodeTile({
        from: 0,
        to: 100,
        width: 100,
        points: [
          { time: -5, min: 20, max: 20, last: 20, track: 2, count: 1 }, // the value carried into the window
          { time: 10, min: 20, max: 40, last: 40, track: 3, count: 2 },
          { time: 50, min: 20, max: 100, last: 60, track: 2, count: 3 },
        ],
      }),
    );
    const plot = { x: 100, w: 400 };
    const strip = { y: 0, h: 100 };
    const l = trackLine(tile.points, 2, { min: 20, max: 100 }, { from: 0, to: 100 }, plot, strip, 80);
    // y: 20 → 100 (bottom), 60 → 50, 100 → 0
    expect(l.line).toEqual([80, 100, 300, 100, 300, 50, 420, 50]);
    expect(l.columns).toEqual([{ x: 300, top: 0, bottom: 100 }]);
    expect(trackLine(tile.points, 9, { min: 0, max: 1 }, { from: 0, to: 100 }, plot, strip, 80).line).toEqual([]);
  });
  it('stacks a strip per track over one time axis', () => {
    const l = layoutLines([0, 2, 3], 800);
    expect(l.strips.map((s) => s.track)).toEqual([0, 2, 3]);
    expect(l.strips[1]!.y).toBeGreaterThan(l.strips[0]!.y + l.strips[0]!.h);
    expect(l.axisY).toBeGreaterThan(l.strips[2]!.y + l.strips[2]!.h);
  });
});
