import { describe, expect, it } from 'vitest';
import type { InFlightMessage } from '../../protocol/api.gen';
import { fitGeometry } from './geometry';
import { inFlightAt, MessageFrame, messageFraction } from './in_flight';
import { meshLayout } from './layouts';

const msg = (send_row: number, recv_row: number, send_time: number, recv_time: number): InFlightMessage => ({ id: 0, send_row, recv_row, send_time, recv_time, bytes: 8, tag: 0 });

describe('messages in flight', () => {
  it('are in flight from their send to their receive, undelivered ones forever', () => {
    const m = msg(0, 1, 100, 200);
    expect(inFlightAt(m, 99)).toBe(false);
    expect(inFlightAt(m, 100)).toBe(true);
    expect(inFlightAt(m, 199)).toBe(true);
    expect(inFlightAt(m, 200)).toBe(false);
    expect(inFlightAt(msg(0, -1, 100, -1), 1e12)).toBe(true);
  });

  it('move the share of their way the cursor is through their flight', () => {
    expect(messageFraction(msg(0, 1, 100, 200), 100)).toBe(0);
    expect(messageFraction(msg(0, 1, 100, 200), 125)).toBe(0.25);
    expect(messageFraction(msg(0, 1, 100, 200), 190)).toBeCloseTo(0.9);
    expect(messageFraction(msg(0, 1, 100, 200), 500)).toBe(1);
    expect(messageFraction(msg(0, 1, 100, 200), 50)).toBe(0);
    expect(messageFraction(msg(0, 1, 100, 100), 100)).toBe(1);
    expect(messageFraction(msg(0, 1, 100, -1), 150)).toBe(0);
  });

  it('are placed between their nodes; undelivered ones counted at the sender', () => {
    // 4 nodes in a 2x2 mesh, rows 0..3 on nodes 0..3
    const s = meshLayout([0, 1, 2, 3].map((i) => ({ label: '', module: { by: 'row', ids: [i] } })));
    const g = fitGeometry(s, 0, 0, 100, 100);
    const rowNode = Int32Array.from([0, 1, 2, 3, -1]);
    const f = new MessageFrame();
    f.place(
      [
        msg(0, 1, 100, 200), // a quarter of the way at 125
        msg(3, 2, 0, 225), // 125/225 of the way
        msg(2, -1, 50, -1), // undelivered
        msg(2, 0, 60, -1), // undelivered, receiver known
        msg(1, 1, 100, 300), // within one node: not drawn
        msg(4, 0, 100, 300), // sender not on the layout
        msg(0, 1, 130, 200), // not sent yet
        msg(0, 1, 10, 120), // already received
      ],
      125,
      rowNode,
      g,
    );
    expect(f.count).toBe(2);
    const m = [...f.moving.slice(0, 12)];
    expect(m.slice(0, 4)).toEqual([g.x[0], g.y[0], g.x[1], g.y[1]]);
    expect(m[4]).toBeCloseTo(g.x[0]! + (g.x[1]! - g.x[0]!) * 0.25);
    expect(m[5]).toBeCloseTo(g.y[0]!);
    expect(m[10]).toBeCloseTo(g.x[3]! + (g.x[2]! - g.x[3]!) * (125 / 225));
    expect(f.undeliveredTotal).toBe(2);
    expect(f.undeliveredNodes).toEqual([2]);
    expect([...f.undelivered]).toEqual([0, 0, 2, 0]);
    // buffers are reused and grow
    f.place(Array.from({ length: 100 }, () => msg(0, 3, 0, 1000)), 500, rowNode, g);
    expect(f.count).toBe(100);
    expect(f.undeliveredTotal).toBe(0);
    expect(f.moving[6 * 99 + 4]).toBeCloseTo((g.x[0]! + g.x[3]!) / 2);
  });
});
