// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TileHold } from './hold';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  let expired = 0;
  const hold = new TileHold({ expired: () => expired++ });
  return { hold, expired: () => expired };
}

describe('TileHold', () => {
  it('paints every frame when not holding', () => {
    const { hold } = setup();
    expect(hold.skipFrame(false, 0)).toBe(false);
    expect(hold.skipFrame(true, 0)).toBe(false);
  });

  it('skips frames with the old tile until the deadline, then paints', () => {
    const { hold } = setup();
    hold.start(250, 1000);
    expect(hold.skipFrame(false, 1000)).toBe(true);
    expect(hold.skipFrame(false, 1249)).toBe(true);
    expect(hold.skipFrame(false, 1250)).toBe(false);
    // Ended by that frame: the next one paints too.
    expect(hold.skipFrame(false, 1251)).toBe(false);
  });

  it('paints as soon as the new tile is there, and ends the hold', () => {
    const { hold, expired } = setup();
    hold.start(250, 1000);
    expect(hold.skipFrame(true, 1010)).toBe(false);
    expect(hold.skipFrame(false, 1020)).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(expired()).toBe(0);
  });

  it('asks for a frame when the time runs out before the tile', () => {
    const { hold, expired } = setup();
    hold.start(250, 1000);
    vi.advanceTimersByTime(249);
    expect(expired()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(expired()).toBe(1);
    expect(hold.skipFrame(false, 1100)).toBe(false);
  });

  it('keeps the first deadline when started again before a fresh tile was painted', () => {
    const { hold, expired } = setup();
    hold.start(250, 1000);
    hold.end(); // the view moved
    expect(hold.skipFrame(false, 1100)).toBe(false);
    hold.start(250, 1200);
    expect(hold.skipFrame(false, 1249)).toBe(true);
    expect(hold.skipFrame(false, 1250)).toBe(false);
    hold.start(250, 1200);
    vi.advanceTimersByTime(50);
    expect(expired()).toBe(1);
  });

  it('gives the next hold its whole time once a fresh tile was painted', () => {
    const { hold } = setup();
    hold.start(250, 1000);
    expect(hold.skipFrame(true, 1100)).toBe(false);
    hold.start(250, 1200);
    expect(hold.skipFrame(false, 1400)).toBe(true);
    expect(hold.skipFrame(false, 1450)).toBe(false);
  });

  it('does not fire once ended', () => {
    const { hold, expired } = setup();
    hold.start(250, 1000);
    hold.end();
    vi.advanceTimersByTime(1000);
    expect(expired()).toBe(0);
    expect(hold.skipFrame(false, 1010)).toBe(false);
  });
});
