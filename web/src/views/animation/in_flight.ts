// Messages in flight at the cursor: each moves from its sender's node to its
// receiver's, (cursor − send) / (recv − send) of the way; an undelivered one
// (recv_time −1) stays at its sender, counted per node. Recomputed every frame
// from the newest /at answer into reused buffers.
import type { InFlightMessage } from '../../protocol/api.gen';
import type { Geometry } from './geometry';

/** Whether a message is travelling at time t: sent, and not yet (or never) received. */
export function inFlightAt(m: InFlightMessage, t: number): boolean {
  return m.send_time <= t && (m.recv_time < 0 || t < m.recv_time);
}

/** How far along its way a message is at time t, 0 (sender) .. 1 (receiver); undelivered: 0. */
export function messageFraction(m: InFlightMessage, t: number): number {
  if (m.recv_time < 0) return 0;
  if (m.recv_time <= m.send_time) return 1;
  return Math.min(1, Math.max(0, (t - m.send_time) / (m.recv_time - m.send_time)));
}

export class MessageFrame {
  /** per moving message: x0, y0 (sender), x1, y1 (receiver), x, y (now) */
  moving = new Float32Array(6 * 64);
  count = 0;
  /** per node: undelivered messages it sent */
  undelivered = new Int32Array(0);
  undeliveredTotal = 0;
  /** nodes with undelivered messages, in node order */
  undeliveredNodes: number[] = [];

  /** Places `messages` at time t on the nodes of `g` (rowNode: timeline row → node, -1 none). */
  place(messages: readonly InFlightMessage[], t: number, rowNode: Int32Array, g: Geometry): void {
    const nodes = g.x.length;
    if (this.undelivered.length !== nodes) this.undelivered = new Int32Array(nodes);
    else this.undelivered.fill(0);
    this.count = 0;
    this.undeliveredTotal = 0;
    this.undeliveredNodes.length = 0;
    for (const m of messages) {
      if (!inFlightAt(m, t)) continue;
      const from = m.send_row >= 0 && m.send_row < rowNode.length ? rowNode[m.send_row]! : -1;
      if (from < 0) continue;
      if (m.recv_time < 0) {
        if (this.undelivered[from] === 0) this.undeliveredNodes.push(from);
        this.undelivered[from]!++;
        this.undeliveredTotal++;
        continue;
      }
      const to = m.recv_row >= 0 && m.recv_row < rowNode.length ? rowNode[m.recv_row]! : -1;
      if (to < 0 || to === from) continue;
      if (6 * (this.count + 1) > this.moving.length) {
        const bigger = new Float32Array(this.moving.length * 2);
        bigger.set(this.moving);
        this.moving = bigger;
      }
      const f = messageFraction(m, t);
      const k = 6 * this.count++;
      const x0 = g.x[from]!;
      const y0 = g.y[from]!;
      const x1 = g.x[to]!;
      const y1 = g.y[to]!;
      this.moving[k] = x0;
      this.moving[k + 1] = y0;
      this.moving[k + 2] = x1;
      this.moving[k + 3] = y1;
      this.moving[k + 4] = x0 + (x1 - x0) * f;
      this.moving[k + 5] = y0 + (y1 - y0) * f;
    }
    this.undeliveredNodes.sort((a, b) => a - b);
  }
}
