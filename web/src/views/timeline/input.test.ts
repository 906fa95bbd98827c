// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { RowLayout, type LayoutInput } from '../../base/layout';
import { panWindow, zoomWindow, type TimeWindow } from '../../base/time_scale';
import type { AreaBox } from './area';
import { LABEL_WIDTH, RULER_HEIGHT, TimelineGeometry } from './geometry';
import { CLICK_SLOP, KEY_PAN, KEY_ZOOM, TimelineInput, WHEEL_ZOOM, type TimelineInputHost } from './input';

const rows: LayoutInput = {
  processes: [
    { index: 0, rank: 0, pid: 1, host: 'h', name: 'rank 0', executable: '', arguments: '', clock_offset_ns: 0, clock_drift_ppm: 0, threads: [0] },
  ],
  threads: [{ index: 0, process: 0, tid: 1, name: 'main', begin: 0, end: 1000, records: 4, max_depth: 1 }],
  counters: [],
};

/** A timeline stand-in: 1000 ns over a 1000 px plot (1 ns per px), recording what the input asks of it. */
class FakeTimeline implements TimelineInputHost {
  win: TimeWindow = { from: 0, to: 1000 };
  scroll = 0;
  readonly layout = new RowLayout(rows);
  readonly calls: string[] = [];
  readonly clicks: Array<[number, number]> = [];
  readonly seeks: number[] = [];
  /** the areas selected (null: cleared), in order */
  readonly areas: Array<AreaBox | null> = [];
  changes = 0;
  labels = LABEL_WIDTH;

  geometry(): TimelineGeometry {
    return new TimelineGeometry(this.win, this.labels + 1000, 400, this.layout, this.scroll, this.labels);
  }
  setLabelWidth(width: number): void {
    this.calls.push(`setLabelWidth ${width}`);
    this.labels = width;
  }
  setWindow(w: TimeWindow): void {
    this.win = w;
  }
  setScroll(top: number): void {
    this.scroll = top;
  }
  zoomBy(factor: number, anchor?: number): void {
    this.calls.push(`zoomBy ${factor} ${anchor}`);
  }
  panBy(fraction: number): void {
    this.calls.push(`panBy ${fraction}`);
  }
  fit(): void {
    this.calls.push('fit');
  }
  clickAt(x: number, y: number): void {
    this.clicks.push([x, y]);
  }
  clearSelection(): void {
    this.calls.push('clearSelection');
  }
  selectArea(box: AreaBox): void {
    this.areas.push(box);
  }
  clearArea(): void {
    this.areas.push(null);
  }
  stepMessage(dir: 1 | -1): void {
    this.calls.push(`stepMessage ${dir}`);
  }
  toPartner(): void {
    this.calls.push('toPartner');
  }
  seekReplay(time: number): void {
    this.seeks.push(time);
  }
  /** what activate() answers (a band under the pointer in compact mode) */
  activates = true;
  activate(x: number, y: number | null): boolean {
    this.calls.push(`activate ${x} ${y}`);
    return this.activates;
  }
  toggleCompact(): void {
    this.calls.push('toggleCompact');
  }
  changed(): void {
    this.changes++;
  }
}

let input: TimelineInput | null = null;
afterEach(() => {
  input?.destroy();
  input = null;
  document.body.replaceChildren();
});

/** jsdom lays nothing out: the canvas is at (0, 0), so client coordinates are canvas coordinates. */
function setup() {
  const root = document.createElement('div');
  root.tabIndex = 0;
  const canvas = document.createElement('canvas');
  root.append(canvas);
  document.body.append(root);
  const host = new FakeTimeline();
  input = new TimelineInput(canvas, root, host);
  const pointer = (type: string, x: number, y: number, init: PointerEventInit = {}): PointerEvent => {
    const e = new PointerEvent(type, { clientX: x, clientY: y, button: 0, pointerId: 1, bubbles: true, ...init });
    canvas.dispatchEvent(e);
    return e;
  };
  const wheel = (x: number, y: number, init: WheelEventInit): WheelEvent => {
    const e = new WheelEvent('wheel', { clientX: x, clientY: y, cancelable: true, bubbles: true, ...init });
    canvas.dispatchEvent(e);
    return e;
  };
  const key = (k: string, init: KeyboardEventInit = {}, target: EventTarget = document.body): KeyboardEvent => {
    const e = new KeyboardEvent('keydown', { key: k, cancelable: true, bubbles: true, ...init });
    target.dispatchEvent(e);
    return e;
  };
  return { root, canvas, host, input, pointer, wheel, key };
}

/** Canvas x of trace time `t` at the starting window. */
const xOf = (t: number): number => LABEL_WIDTH + t;
/** A y in the rows area, below the ruler. */
const ROWS_Y = RULER_HEIGHT + 100;

describe('timeline input: wheel', () => {
  it('zooms around the pointer with ctrl (a pinch), keeping the time under it in place', () => {
    const { host, wheel } = setup();
    const e = wheel(xOf(250), ROWS_Y, { deltaY: -100, ctrlKey: true });
    expect(e.defaultPrevented).toBe(true);
    expect(host.win).toEqual(zoomWindow({ from: 0, to: 1000 }, Math.exp(-100 * WHEEL_ZOOM), 250));
    expect(host.win.to - host.win.from).toBeLessThan(1000);
    expect(host.geometry().xToTime(xOf(250))).toBeCloseTo(250, 9);
  });

  it('zooms out on a wheel down, also without ctrl', () => {
    const { host, wheel } = setup();
    wheel(xOf(800), ROWS_Y, { deltaY: 100 });
    expect(host.win).toEqual(zoomWindow({ from: 0, to: 1000 }, Math.exp(100 * WHEEL_ZOOM), 800));
  });

  it('pans on a mostly sideways wheel, a pixel of wheel per pixel of plot', () => {
    const { host, wheel } = setup();
    wheel(xOf(500), ROWS_Y, { deltaX: 40, deltaY: 10 });
    expect(host.win).toEqual({ from: 40, to: 1040 });
  });

  it('scrolls the rows over the labels, counting lines as 16 px', () => {
    const { host, wheel } = setup();
    wheel(LABEL_WIDTH - 10, ROWS_Y, { deltaY: 30 });
    expect(host.scroll).toBe(30);
    wheel(LABEL_WIDTH - 10, ROWS_Y, { deltaY: 2, deltaMode: 1 });
    expect(host.scroll).toBe(62);
    expect(host.win).toEqual({ from: 0, to: 1000 });
  });

  it('pans with shift+wheel, whether the browser reports it as deltaY or deltaX', () => {
    const { host, wheel } = setup();
    const e = wheel(xOf(500), ROWS_Y, { deltaY: 2, deltaMode: 1, shiftKey: true });
    expect(e.defaultPrevented).toBe(true);
    expect(host.win).toEqual({ from: 32, to: 1032 });
    wheel(xOf(500), ROWS_Y, { deltaX: -12, shiftKey: true });
    expect(host.win).toEqual({ from: 20, to: 1020 });
    expect(host.scroll).toBe(0);
  });
});

describe('timeline input: pointer', () => {
  it('pans the window and scrolls the rows with a plain drag', () => {
    const { host, pointer, canvas, root } = setup();
    host.scroll = 50;
    pointer('pointerdown', xOf(500), ROWS_Y);
    expect(document.activeElement).toBe(root);
    pointer('pointermove', xOf(400), ROWS_Y - 20);
    expect(host.win).toEqual(panWindow({ from: 0, to: 1000 }, 100));
    expect(host.scroll).toBe(70);
    expect(canvas.style.cursor).toBe('grabbing');
    pointer('pointerup', xOf(400), ROWS_Y - 20);
    expect(host.clicks).toEqual([]);
    expect(input!.dragging).toBe(false);
  });

  it('takes a press that moves less than the click slop for a click', () => {
    const { host, pointer } = setup();
    pointer('pointerdown', xOf(500), ROWS_Y);
    expect(input!.dragging).toBe(true);
    pointer('pointermove', xOf(500) + CLICK_SLOP - 1, ROWS_Y);
    pointer('pointerup', xOf(500) + CLICK_SLOP - 1, ROWS_Y);
    expect(host.win).toEqual({ from: 0, to: 1000 });
    expect(host.clicks).toEqual([[xOf(500) + CLICK_SLOP - 1, ROWS_Y]]);
  });

  it('neither clicks nor pans on a cancelled press or another button', () => {
    const { host, pointer } = setup();
    pointer('pointerdown', xOf(500), ROWS_Y, { button: 2 });
    expect(input!.dragging).toBe(false);
    pointer('pointerdown', xOf(500), ROWS_Y);
    pointer('pointercancel', xOf(500), ROWS_Y);
    expect(host.clicks).toEqual([]);
  });

  it('selects a range with shift-drag and zooms to it on release', () => {
    const { host, pointer } = setup();
    pointer('pointerdown', xOf(600), ROWS_Y, { shiftKey: true });
    pointer('pointermove', xOf(300), ROWS_Y);
    expect(input!.range).toEqual({ from: 600, to: 300 });
    expect(host.win).toEqual({ from: 0, to: 1000 });
    pointer('pointerup', xOf(300), ROWS_Y);
    expect(host.win).toEqual({ from: 300, to: 600 });
    expect(input!.range).toBeNull();
  });

  it('seeks replay on a click on the ruler and zooms on a drag along it', () => {
    const { host, pointer } = setup();
    pointer('pointerdown', xOf(700), 5);
    pointer('pointerup', xOf(700), 5);
    expect(host.seeks).toEqual([700]);
    expect(host.win).toEqual({ from: 0, to: 1000 });
    pointer('pointerdown', xOf(100), 5);
    pointer('pointermove', xOf(200), 5);
    pointer('pointerup', xOf(200), 5);
    expect(host.seeks).toEqual([700]);
    expect(host.win).toEqual({ from: 100, to: 200 });
  });

  it('keeps an alt-drag measurement after release until Escape', () => {
    const { host, pointer, key } = setup();
    pointer('pointerdown', xOf(100), ROWS_Y, { altKey: true });
    pointer('pointermove', xOf(400), ROWS_Y);
    pointer('pointerup', xOf(400), ROWS_Y);
    expect(input!.range).toEqual({ from: 100, to: 400 });
    expect(host.win).toEqual({ from: 0, to: 1000 });
    const e = key('Escape');
    expect(input!.range).toBeNull();
    expect(host.calls).toEqual(['clearSelection']);
    expect(e.defaultPrevented).toBe(true);
  });

  it('selects an area with ctrl-drag or meta-drag: times and content y, the window and scroll kept', () => {
    const { host, pointer } = setup();
    host.scroll = 30;
    pointer('pointerdown', xOf(600), ROWS_Y, { ctrlKey: true });
    pointer('pointermove', xOf(250), ROWS_Y + 40);
    expect(input!.areaDrag).toEqual({ from: 600, to: 250, top: 100 + 30, bottom: 140 + 30 });
    expect(input!.range).toBeNull();
    pointer('pointerup', xOf(250), ROWS_Y + 40);
    expect(host.areas).toEqual([{ from: 600, to: 250, top: 130, bottom: 170 }]);
    expect(input!.areaDrag).toBeNull();
    expect(host.win).toEqual({ from: 0, to: 1000 });
    expect(host.scroll).toBe(30);
    expect(host.clicks).toEqual([]);
    // Meta (macOS) does the same; the bottom stops at the ruler when dragged above it.
    pointer('pointerdown', xOf(100), ROWS_Y, { metaKey: true });
    pointer('pointermove', xOf(200), 5);
    pointer('pointerup', xOf(200), 5);
    expect(host.areas[1]).toEqual({ from: 100, to: 200, top: 130, bottom: 30 });
  });

  it('clears the area on a plain click, a ctrl-click and Escape, not on a pan or a shift-drag', () => {
    const { host, pointer, key } = setup();
    pointer('pointerdown', xOf(500), ROWS_Y);
    pointer('pointermove', xOf(400), ROWS_Y);
    pointer('pointerup', xOf(400), ROWS_Y);
    pointer('pointerdown', xOf(600), ROWS_Y, { shiftKey: true });
    pointer('pointermove', xOf(300), ROWS_Y);
    pointer('pointerup', xOf(300), ROWS_Y);
    expect(host.areas).toEqual([]);
    pointer('pointerdown', xOf(500), ROWS_Y);
    pointer('pointerup', xOf(500), ROWS_Y);
    expect(host.areas).toEqual([null]);
    expect(host.clicks).toEqual([[xOf(500), ROWS_Y]]);
    pointer('pointerdown', xOf(500), ROWS_Y, { ctrlKey: true });
    pointer('pointerup', xOf(500) + 1, ROWS_Y);
    expect(host.areas).toEqual([null, null]);
    expect(host.clicks.length).toBe(1);
    key('Escape');
    expect(host.areas).toEqual([null, null, null]);
    expect(host.calls).toEqual(['clearSelection']);
  });

  it('keeps a ruler drag a zoom and a label drag a pan with ctrl held', () => {
    const { host, pointer } = setup();
    pointer('pointerdown', xOf(100), 5, { ctrlKey: true });
    pointer('pointermove', xOf(200), 5);
    pointer('pointerup', xOf(200), 5);
    expect(host.win).toEqual({ from: 100, to: 200 });
    pointer('pointerdown', LABEL_WIDTH - 50, ROWS_Y, { ctrlKey: true });
    pointer('pointermove', LABEL_WIDTH - 50, ROWS_Y - 20);
    pointer('pointerup', LABEL_WIDTH - 50, ROWS_Y - 20);
    expect(host.scroll).toBe(20);
    expect(host.areas).toEqual([]);
  });

  it('tracks the pointer, forgetting it on leave unless a drag holds it', () => {
    const { host, pointer } = setup();
    pointer('pointermove', xOf(300), ROWS_Y);
    expect(input!.pointer).toBe(xOf(300));
    expect(host.changes).toBe(1);
    pointer('pointerdown', xOf(300), ROWS_Y);
    pointer('pointerleave', xOf(300), ROWS_Y);
    expect(input!.pointer).toBe(xOf(300));
    pointer('pointerup', xOf(300), ROWS_Y);
    pointer('pointerleave', xOf(300), ROWS_Y);
    expect(input!.pointer).toBeNull();
  });

  it('shows what a press would do in the cursor', () => {
    const { pointer, canvas } = setup();
    pointer('pointermove', xOf(300), 5);
    expect(canvas.style.cursor).toBe('col-resize');
    pointer('pointermove', xOf(300), ROWS_Y);
    expect(canvas.style.cursor).toBe('crosshair');
    // The host header is the first item under the ruler.
    pointer('pointermove', 10, RULER_HEIGHT + 5);
    expect(canvas.style.cursor).toBe('pointer');
    pointer('pointermove', 10, RULER_HEIGHT + 300);
    expect(canvas.style.cursor).toBe('default');
  });

  it('resizes the label column with a drag of its edge, neither panning nor clicking', () => {
    const { pointer, canvas, host } = setup();
    pointer('pointermove', LABEL_WIDTH + 2, ROWS_Y);
    expect(canvas.style.cursor).toBe('ew-resize');
    pointer('pointerdown', LABEL_WIDTH + 2, ROWS_Y);
    pointer('pointermove', LABEL_WIDTH + 52, ROWS_Y + 30);
    pointer('pointerup', LABEL_WIDTH + 52, ROWS_Y + 30);
    expect(host.calls).toEqual([`setLabelWidth ${LABEL_WIDTH + 50}`]);
    expect(host.win).toEqual({ from: 0, to: 1000 });
    expect(host.scroll).toBe(0);
    expect(host.clicks).toEqual([]);
    // The plot starts at the new edge: a press a little right of the old one pans.
    pointer('pointerdown', LABEL_WIDTH + 10, 5);
    pointer('pointerup', LABEL_WIDTH + 10, 5);
    expect(host.seeks).toEqual([]);
  });

  it('fits the trace on a double click on the ruler; in the rows it activates the band there', () => {
    const { host, canvas } = setup();
    canvas.dispatchEvent(new MouseEvent('dblclick', { clientX: xOf(300), clientY: ROWS_Y }));
    expect(host.calls).toEqual([`activate ${xOf(300)} ${ROWS_Y}`]);
    canvas.dispatchEvent(new MouseEvent('dblclick', { clientX: xOf(300), clientY: 5 }));
    expect(host.calls).toEqual([`activate ${xOf(300)} ${ROWS_Y}`, 'fit']);
  });
});

describe('timeline input: keys', () => {
  it('zooms with W and S around the pointer, or the middle when it is off the plot', () => {
    const { host, pointer, key } = setup();
    expect(key('w').defaultPrevented).toBe(true);
    pointer('pointermove', xOf(250), ROWS_Y);
    key('S');
    pointer('pointermove', LABEL_WIDTH - 1, ROWS_Y);
    key('w');
    expect(host.calls).toEqual([`zoomBy ${KEY_ZOOM} undefined`, `zoomBy ${1 / KEY_ZOOM} 250`, `zoomBy ${KEY_ZOOM} undefined`]);
  });

  it('pans with A and D and fits with F', () => {
    const { host, key } = setup();
    key('a');
    key('d');
    key('f');
    expect(host.calls).toEqual([`panBy ${-KEY_PAN}`, `panBy ${KEY_PAN}`, 'fit']);
  });

  it('follows messages with ] and [ and jumps to the partner end with P', () => {
    const { host, key } = setup();
    expect(key(']').defaultPrevented).toBe(true);
    key('[');
    key('p');
    key('P');
    expect(host.calls).toEqual(['stepMessage 1', 'stepMessage -1', 'toPartner', 'toPartner']);
  });

  it('toggles the compact mode with C; Enter activates the band under the pointer, if any', () => {
    const { host, key, pointer } = setup();
    expect(key('c').defaultPrevented).toBe(true);
    key('C');
    expect(host.calls).toEqual(['toggleCompact', 'toggleCompact']);
    // Off the canvas, or where activate() does nothing, Enter is left to the page (a focused button).
    expect(key('Enter').defaultPrevented).toBe(false);
    pointer('pointermove', xOf(100), ROWS_Y);
    expect(key('Enter').defaultPrevented).toBe(true);
    host.activates = false;
    expect(key('Enter').defaultPrevented).toBe(false);
    expect(host.calls.slice(2)).toEqual([`activate ${xOf(100)} ${ROWS_Y}`, `activate ${xOf(100)} ${ROWS_Y}`]);
  });

  it('leaves keys with modifiers, other keys and typing in text fields alone', () => {
    const { host, key } = setup();
    const text = document.createElement('input');
    const box = document.createElement('input');
    box.type = 'checkbox';
    document.body.append(text, box);
    expect(key('w', { ctrlKey: true }).defaultPrevented).toBe(false);
    key('d', { metaKey: true });
    key('f', { altKey: true });
    expect(key('x').defaultPrevented).toBe(false);
    key('w', {}, text);
    expect(host.calls).toEqual([]);
    key('w', {}, box);
    expect(host.calls).toEqual([`zoomBy ${KEY_ZOOM} undefined`]);
  });

  it('stops listening once destroyed', () => {
    const { host, key, wheel } = setup();
    input!.destroy();
    key('f');
    wheel(xOf(500), ROWS_Y, { deltaX: 40 });
    expect(host.calls).toEqual([]);
    expect(host.win).toEqual({ from: 0, to: 1000 });
  });
});
