// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { RULER_HEIGHT } from './geometry';
import { RowScroll } from './scroll';

/** Rows 1000 px high under a canvas showing 300 px of them: the scroll goes from 0 to 700. */
function setup() {
  const state = { rows: 1000, view: 300 + RULER_HEIGHT, draws: 0 };
  const scroll = new RowScroll({
    rowsHeight: () => state.rows,
    viewHeight: () => state.view,
    requestDraw: () => state.draws++,
  });
  return { scroll, state };
}

describe('RowScroll', () => {
  it('clamps to the scroll that puts the last row at the bottom, for any canvas height', () => {
    const { scroll } = setup();
    expect(scroll.clamp(-5)).toBe(0);
    expect(scroll.clamp(400)).toBe(400);
    expect(scroll.clamp(900)).toBe(700);
    expect(scroll.clamp(900, 600 + RULER_HEIGHT)).toBe(400);
    // A canvas taller than the rows does not scroll.
    expect(scroll.clamp(50, 2000)).toBe(0);
  });

  it('scrolls the rows and the scroller, drawing only on a change', () => {
    const { scroll, state } = setup();
    scroll.set(250);
    expect(scroll.top).toBe(250);
    expect(scroll.element.scrollTop).toBe(250);
    expect(state.draws).toBe(1);
    scroll.set(250);
    scroll.set(-10);
    expect(scroll.top).toBe(0);
    expect(state.draws).toBe(2);
    scroll.set(5000);
    expect(scroll.top).toBe(700);
  });

  it('leaves the scroller alone when it is within a pixel', () => {
    const { scroll } = setup();
    scroll.element.scrollTop = 100;
    scroll.set(100.5);
    expect(scroll.top).toBe(100.5);
    expect(scroll.element.scrollTop).toBe(100);
  });

  it('follows the scrollbar, clamped', () => {
    const { scroll, state } = setup();
    scroll.element.scrollTop = 320;
    scroll.element.dispatchEvent(new Event('scroll'));
    expect(scroll.top).toBe(320);
    expect(state.draws).toBe(1);
    scroll.element.dispatchEvent(new Event('scroll'));
    expect(state.draws).toBe(1);
    scroll.element.scrollTop = 900;
    scroll.element.dispatchEvent(new Event('scroll'));
    expect(scroll.top).toBe(700);
  });

  it('sizes the scrollbar to the rows and keeps the position within them', () => {
    const { scroll, state } = setup();
    scroll.set(600);
    state.rows = 500;
    scroll.update();
    expect((scroll.element.firstElementChild as HTMLElement).style.height).toBe(`${500 + RULER_HEIGHT}px`);
    expect(scroll.top).toBe(200);
    expect(scroll.element.scrollTop).toBe(200);
  });

  it('stops following the scrollbar once destroyed', () => {
    const { scroll, state } = setup();
    scroll.destroy();
    scroll.element.scrollTop = 320;
    scroll.element.dispatchEvent(new Event('scroll'));
    expect(scroll.top).toBe(0);
    expect(state.draws).toBe(0);
  });
});
