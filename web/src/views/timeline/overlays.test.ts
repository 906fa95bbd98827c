import { describe, expect, it } from 'vitest';
import type { AnomalyList, CriticalPathResult, PathSegment, SliceRef } from '../../protocol/api.gen';
import { RowLayout } from '../../base/layout';
import type { WaitsWindowParams } from '../../protocol/api.gen';
import type { ApiClient } from '../context';
import { TimelineGeometry } from './geometry';
import { TimelineOverlays, type TimelineOverlaysHost } from './overlays';
import { TWO_RANKS } from './test_rows';

const ref = (id: number): SliceRef => ({ id, row: 0, state: 0, begin: id, end: id + 1, depth: 0 });
const segment = (begin: number): PathSegment => ({ row: 0, begin, end: begin + 10 });

/** A timeline stand-in counting the requests and answering them from `answers`. */
function setup(answers: { path?: PathSegment[]; anomalies?: SliceRef[]; fail?: boolean } = {}) {
  const asked: string[] = [];
  let draws = 0;
  const host: TimelineOverlaysHost = {
    fetchCriticalPath: () => {
      asked.push('critical-path');
      if (answers.fail) return Promise.reject(new Error('no'));
      return Promise.resolve({ length: 0, segments: answers.path ?? [] } as unknown as CriticalPathResult);
    },
    fetchAnomalies: () => {
      asked.push('anomalies');
      const list = (answers.anomalies ?? []).map((slice) => ({ slice, duration: 0, median: 0 }));
      return Promise.resolve({ method: '', anomalies: list, total: list.length } as unknown as AnomalyList);
    },
    requestDraw: () => draws++,
  };
  return { overlays: new TimelineOverlays(host), asked, draws: () => draws };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('TimelineOverlays', () => {
  it('blinks the highlighted slices twice a second, and stops with none', () => {
    const { overlays, draws } = setup();
    expect(overlays.blinking).toBe(false);
    expect(overlays.blink(125)).toBe(0);
    const slices = [ref(1), ref(2)];
    overlays.highlight(slices);
    slices.pop(); // the caller's list is copied
    expect(overlays.highlighted.map((s) => s.id)).toEqual([1, 2]);
    expect(overlays.blinking).toBe(true);
    expect(draws()).toBe(1);
    expect(overlays.blink(125)).toBeCloseTo(1, 9);
    expect(overlays.blink(375)).toBeCloseTo(0, 9);
    expect(overlays.blink(625)).toBeCloseTo(1, 9);
    overlays.highlight([]);
    expect(overlays.blinking).toBe(false);
  });

  it('asks for the critical path once, keeps it in time order, and shows it only while on', async () => {
    const { overlays, asked } = setup({ path: [segment(50), segment(10), segment(30)] });
    expect(overlays.criticalPath).toBeNull();
    overlays.set('critical-path', true);
    await settle();
    expect(overlays.criticalPath?.map((s) => s.begin)).toEqual([10, 30, 50]);
    overlays.set('critical-path', false);
    expect(overlays.criticalPath).toBeNull();
    overlays.set('critical-path', true);
    await settle();
    expect(asked).toEqual(['critical-path']);
    expect(overlays.criticalPath).toHaveLength(3);
    expect(overlays.anomalies).toBeNull();
  });

  it('asks for the anomalies once and gives their slices while on', async () => {
    const { overlays, asked } = setup({ anomalies: [ref(7), ref(3)] });
    overlays.set('anomalies', true);
    await settle();
    expect(overlays.anomalies?.map((s) => s.id)).toEqual([7, 3]);
    overlays.set('anomalies', true);
    overlays.set('anomalies', false);
    expect(overlays.anomalies).toBeNull();
    expect(asked).toEqual(['anomalies']);
    expect(overlays.criticalPath).toBeNull();
  });

  it('stays on with nothing to draw when the request fails', async () => {
    const { overlays } = setup({ fail: true });
    overlays.set('critical-path', true);
    await settle();
    expect(overlays.criticalPath).toBeNull();
  });

  it('drops the data of an old snapshot and asks again only for the overlays that are on', async () => {
    const { overlays, asked } = setup({ path: [segment(1)], anomalies: [ref(1)] });
    overlays.set('critical-path', true);
    overlays.set('anomalies', true);
    await settle();
    overlays.set('anomalies', false);
    overlays.drop();
    expect(overlays.criticalPath).toBeNull();
    overlays.refetch();
    await settle();
    expect(asked).toEqual(['critical-path', 'anomalies', 'critical-path']);
    expect(overlays.criticalPath).toHaveLength(1);
    overlays.set('anomalies', true);
    await settle();
    expect(asked).toHaveLength(4);
  });

  it('turns the waits overlay on and off apart from the others, asking for the window given, again after a snapshot', async () => {
    const { overlays, asked } = setup({ path: [segment(1)] });
    const windows: WaitsWindowParams[] = [];
    const api = {
      get: (_e: string, p: WaitsWindowParams) => {
        windows.push(p);
        const imbalance = { units: 0, max: 0, min: 0, mean: 0, max_row: -1, min_row: -1, imbalance: 0, percent: 0 };
        return Promise.resolve({ from: 0, to: 1000, rows: 2, waits: [], matched: 0, complete: true, rows_waiting: [], imbalance });
      },
    } as unknown as ApiClient;
    const g = new TimelineGeometry({ from: 0, to: 1000 }, 1200, 300, new RowLayout(TWO_RANKS), 0, 200);
    expect(overlays.waitsFor(api, g, 2, null)).toBeNull();
    overlays.set('waits', true);
    expect(overlays.isOn('waits')).toBe(true);
    expect(overlays.isOn('critical-path')).toBe(false);
    overlays.waitsFor(api, g, 2, null);
    await new Promise((r) => setTimeout(r, 5));
    expect(windows).toHaveLength(1);
    expect(overlays.waitsFor(api, g, 2, null)?.status).toBe('waits: 0 of 0 shown');
    expect(asked).toEqual([]); // the critical path is not asked for
    overlays.drop();
    expect(overlays.waitsFor(api, g, 2, null)).toBeNull();
    await new Promise((r) => setTimeout(r, 5));
    expect(windows).toHaveLength(2);
    overlays.set('waits', false);
    expect(overlays.waitsFor(api, g, 2, null)).toBeNull();
  });
});
