// Hit testing on the timeline: which bar, instant marker or arrow is under a
// point. Works on screen coordinates through a small geometry interface.
import { LANE_HEIGHT } from '../../base/layout';
import { FLAG_MERGED, type Tile } from '../../engine/tile';

export interface HitGeometry {
  timeToX(t: number): number;
  /** screen y of the top of `row`'s lane `depth`; NaN when not shown */
  laneTop(row: number, depth: number): number;
  /** screen y where arrows of `row` start and end; NaN when unknown */
  rowAnchorY(row: number): number;
  /** screen y of the top of the row's line; NaN when unknown */
  rowTop(row: number): number;
}

export type Hit =
  | { kind: 'slice'; index: number; merged: boolean }
  | { kind: 'instant'; index: number; merged: boolean }
  | { kind: 'arrow'; index: number; merged: boolean };

/** Height of an instant marker, px from its row's top. */
export const INSTANT_SIZE = 7;

/** Distance from (px, py) to the segment (x1, y1)–(x2, y2). */
export function distanceToSegment(px: number, py: number, x1: number, y1: number, x2: number, y2: number): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((px - x1) * dx + (py - y1) * dy) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  const cx = x1 + t * dx;
  const cy = y1 + t * dy;
  return Math.hypot(px - cx, py - cy);
}

export function hitTest(
  tile: Tile,
  g: HitGeometry,
  x: number,
  y: number,
  visible: (state: number) => boolean = () => true,
  tolerance = 3,
): Hit | null {
  // Instants: small markers on top of everything.
  const ins = tile.instants;
  let best = -1;
  let bestDist = Infinity;
  for (let i = 0; i < ins.count; i++) {
    const top = g.rowTop(ins.row[i]!);
    if (!(y >= top && y <= top + INSTANT_SIZE + 1)) continue;
    const d = Math.abs(g.timeToX(ins.time[i]!) - x);
    if (d <= INSTANT_SIZE / 2 + 1 && d < bestDist) {
      best = i;
      bestDist = d;
    }
  }
  if (best >= 0) return { kind: 'instant', index: best, merged: (ins.flags[best]! & FLAG_MERGED) !== 0 };

  // Arrows: lines, a few pixels of tolerance.
  const ar = tile.arrows;
  bestDist = Infinity;
  for (let i = 0; i < ar.count; i++) {
    const y1 = g.rowAnchorY(ar.fromRow[i]!);
    const y2 = g.rowAnchorY(ar.toRow[i]!);
    if (Number.isNaN(y1) || Number.isNaN(y2)) continue;
    const d = distanceToSegment(x, y, g.timeToX(ar.send[i]!), y1, g.timeToX(ar.recv[i]!), y2);
    if (d <= tolerance && d < bestDist) {
      best = i;
      bestDist = d;
    }
  }
  if (best >= 0) return { kind: 'arrow', index: best, merged: (ar.flags[best]! & FLAG_MERGED) !== 0 };

  // Bars: the one whose lane contains y and whose extent (at least a pixel) contains x.
  const s = tile.slices;
  let mergedHit = -1;
  for (let i = 0; i < s.count; i++) {
    if (!visible(s.state[i]!)) continue;
    const top = g.laneTop(s.row[i]!, s.depth[i]!);
    if (!(y >= top && y < top + LANE_HEIGHT)) continue;
    const x0 = g.timeToX(s.begin[i]!);
    const x1 = Math.max(g.timeToX(s.end[i]!), x0 + 1);
    if (x < x0 - 0.5 || x > x1 + 0.5) continue;
    if ((s.flags[i]! & FLAG_MERGED) === 0) return { kind: 'slice', index: i, merged: false };
    if (mergedHit < 0) mergedHit = i;
  }
  if (mergedHit >= 0) return { kind: 'slice', index: mergedHit, merged: true };
  return null;
}
