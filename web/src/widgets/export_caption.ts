// The footer of an exported picture: the trace's name, the time range shown
// (from – to and its duration, in the viewer's time format, src/base/format.ts)
// and a legend of the states in the picture, so the file explains itself.
import { formatDuration, formatTimes, resolutionFor } from '../base/format';
import type { Painter } from '../render/painter';
import { SvgPainter } from '../render/svg_painter';

export interface ExportCaption {
  trace: string;
  /** the time range shown (ns); null when the view shows none */
  range: { from: number; to: number } | null;
  /** the states the picture shows (hidden ones left out), in legend order */
  states: readonly { name: string; color: string }[];
}

const FONT = '12px sans-serif';
const BOLD = 'bold 12px sans-serif';
const LINE = 18;
const PAD = 8;
const SWATCH = 10;
const GAP = 14;

type Item =
  | { kind: 'text'; x: number; y: number; text: string; font: string }
  | { kind: 'swatch'; x: number; y: number; color: string };

/** The range's words as the status bar gives the window's: '1.000 ms – 3.500 ms (2.5 ms)'. */
export function rangeText(range: { from: number; to: number }): string {
  const [from, to] = formatTimes([range.from, range.to], resolutionFor((range.to - range.from) / 1000));
  return `${from} – ${to} (${formatDuration(range.to - range.from)})`;
}

/** Where the footer's words and swatches go in a picture `width` wide; y from the footer's top. */
export function layoutCaption(
  c: ExportCaption,
  width: number,
  measure: (text: string, font: string) => number,
): { height: number; items: Item[] } {
  const items: Item[] = [];
  let y = PAD;
  items.push({ kind: 'text', x: PAD, y, text: c.trace, font: BOLD });
  if (c.range) {
    items.push({ kind: 'text', x: PAD + measure(c.trace, BOLD) + GAP, y, text: rangeText(c.range), font: FONT });
  }
  let x = PAD;
  y += LINE;
  for (const s of c.states) {
    const w = SWATCH + 4 + measure(s.name, FONT);
    if (x > PAD && x + w > width - PAD) {
      x = PAD;
      y += LINE;
    }
    items.push({ kind: 'swatch', x, y: y + 1, color: s.color });
    items.push({ kind: 'text', x: x + SWATCH + 4, y, text: s.name, font: FONT });
    x += w + GAP;
  }
  if (c.states.length) y += LINE;
  return { height: y + PAD - 4, items };
}

/** A painter that tells `inner`'s drawing a smaller surface (the view's size above the footer). */
function viewSurface(inner: Painter, width: number, height: number): Painter {
  return {
    width,
    height,
    clear: (color) => inner.fillRect(0, 0, width, height, color ?? '#ffffff'),
    fillRect: (...a) => inner.fillRect(...a),
    strokeRect: (...a) => inner.strokeRect(...a),
    line: (...a) => inner.line(...a),
    polyline: (...a) => inner.polyline(...a),
    polygon: (...a) => inner.polygon(...a),
    segments: (...a) => inner.segments(...a),
    triangles: (...a) => inner.triangles(...a),
    text: (...a) => inner.text(...a),
    measureText: (...a) => inner.measureText(...a),
    save: () => inner.save(),
    clip: (...a) => inner.clip(...a),
    restore: () => inner.restore(),
  };
}

/** The picture's size and paint with the footer below the view's own. */
export function withCaption(
  size: { width: number; height: number },
  paint: (p: Painter) => void,
  caption: ExportCaption,
): { size: { width: number; height: number }; paint: (p: Painter) => void } {
  const width = Math.ceil(size.width);
  const viewHeight = Math.ceil(size.height);
  const measurer = new SvgPainter(1, 1);
  const layout = layoutCaption(caption, width, (t, f) => measurer.measureText(t, f));
  return {
    size: { width, height: viewHeight + layout.height },
    paint: (p) => {
      p.save();
      p.clip(0, 0, width, viewHeight);
      paint(viewSurface(p, width, viewHeight));
      p.restore();
      p.line(0, viewHeight + 0.5, width, viewHeight + 0.5, '#d0d4da');
      for (const it of layout.items) {
        if (it.kind === 'swatch') {
          p.fillRect(it.x, viewHeight + it.y, SWATCH, SWATCH, it.color);
          p.strokeRect(it.x, viewHeight + it.y, SWATCH, SWATCH, '#00000040', 1);
        } else {
          p.text(it.x, viewHeight + it.y, it.text, { color: '#1d2330', font: it.font, baseline: 'top' });
        }
      }
    },
  };
}

/**
 * The footer of a picture of `summary`'s trace over `window`: the states in
 * `shown` (ids, e.g. those of the timeline's tile) or, when that is not known
 * (null), every state, less those the legend hides, in the legend's order.
 */
export function exportCaption(
  summary: { name: string; states: readonly { index: number; name: string }[] },
  style: { color(state: number): string; visible(state: number): boolean },
  window: { from: number; to: number } | null,
  shown: Iterable<number> | null,
): ExportCaption {
  const present = shown ? new Set(shown) : null;
  const states = summary.states
    .filter((s) => style.visible(s.index) && (!present || present.has(s.index)))
    .map((s) => ({ name: s.name, color: style.color(s.index) }));
  return { trace: summary.name, range: window, states };
}
