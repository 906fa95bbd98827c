import { describe, expect, it } from 'vitest';
import { followWindow, liveWindow, nextPage } from './follow';

describe('followWindow', () => {
  const w = { from: 1000, to: 2000 };
  it('leaves the window alone while the cursor is in it', () => {
    expect(followWindow(w, 1000)).toBe(w);
    expect(followWindow(w, 1500)).toBe(w);
    expect(followWindow(w, 2000)).toBe(w);
  });
  it('turns whole pages forward or back, keeping the width', () => {
    expect(followWindow(w, 2500)).toEqual({ from: 2000, to: 3000 });
    expect(followWindow(w, 5200)).toEqual({ from: 5000, to: 6000 });
    expect(followWindow(w, 500)).toEqual({ from: 0, to: 1000 });
    expect(followWindow(w, -1500)).toEqual({ from: -2000, to: -1000 });
  });
  it('gives back the same window when the cursor returns (stepping back over a page turn)', () => {
    const w0 = { from: 303_000_123.5, to: 303_004_987.25 };
    const ahead = followWindow(w0, 303_007_000);
    expect(ahead.from).toBeGreaterThan(w0.from);
    const back = followWindow(ahead, 303_001_000);
    expect(back.from).toBeCloseTo(w0.from, 3);
    expect(back.to).toBeCloseTo(w0.to, 3);
  });
  it('slides to the newest clock when following live', () => {
    expect(liveWindow(w, 9000)).toEqual({ from: 8000, to: 9000 });
  });
});

describe('nextPage', () => {
  const w = { from: 1000, to: 2000 };
  it('is the page followWindow turns to, once the cursor is past the middle its way', () => {
    expect(nextPage(w, 1400, 1)).toBeNull();
    expect(nextPage(w, 1500, 1)).toEqual({ from: 2000, to: 3000 });
    expect(nextPage(w, 1600, -1)).toBeNull();
    expect(nextPage(w, 1500, -1)).toEqual({ from: 0, to: 1000 });
    expect(nextPage(w, 1900, 0)).toBeNull(); // not moving
    expect(nextPage(w, 2500, 1)).toBeNull(); // not in the window
  });
  it('is bit for bit the window of the turn', () => {
    const w0 = { from: 303_000_123.5, to: 303_004_987.25 };
    expect(nextPage(w0, 303_004_000, 1)).toEqual(followWindow(w0, 303_005_000));
    expect(nextPage(w0, 303_000_200, -1)).toEqual(followWindow(w0, 303_000_000));
  });
});
