// Following a program's flow on the timeline: from the selected slice or
// message, "]" / "[" select the next / previous message end on its row and
// "p" the selected message's other end, each brought into view; show() is a
// message picked elsewhere (the details' links). Where the
// next message is comes from the server (engine/links.ts); the window math
// here is pure.
import { windowAround, type TimeWindow } from '../../base/time_scale';
import { endOf, type End, type MessageEnds, type TraceLinks } from '../../engine/links';
import type { TimelineSelection } from './selection';

/** The window showing time `t`: `w` when `t` lies inside it away from its edges, else `w` centred on `t`. */
export function windowShowing(w: TimeWindow, t: number, edge = 0.05): TimeWindow {
  const span = w.to - w.from;
  if (t >= w.from + span * edge && t <= w.to - span * edge) return w;
  return { from: t - span / 2, to: t + span / 2 };
}

/** The window showing both ends of `m`: `w` when it does, else one around them (zooming out or in as needed). */
export function windowShowingMessage(w: TimeWindow, m: Pick<MessageEnds, 'send' | 'recv'>): TimeWindow {
  const a = Math.min(m.send, m.recv);
  const b = Math.max(m.send, m.recv);
  if (a >= w.from && b <= w.to) return w;
  const span = w.to - w.from;
  // Keep the zoom when the message fits in the window; else just fit it.
  if (b - a <= span * 0.8) return { from: (a + b) / 2 - span / 2, to: (a + b) / 2 + span / 2 };
  return windowAround(a, b, 0.25);
}

/** What the flow keys need of the timeline's view. */
export interface FlowView {
  window(): TimeWindow;
  setWindow(w: TimeWindow): void;
  /** Scrolls `row` into view and shows `time` (keeping the zoom). */
  reveal(row: number, time: number): void;
}

/** The selection the flow reads and changes (selection.ts). */
export type FlowSelection = Pick<TimelineSelection, 'selected' | 'message' | 'selectMessage' | 'flipFocus'>;

/** Where the next message end is (engine/links.ts). */
export type FlowLinks = Pick<TraceLinks, 'nextMessage'>;

export class MessageFlow {
  /** Counts steps: a slow answer to an older key press is dropped. */
  private seq = 0;

  constructor(
    private readonly selection: FlowSelection,
    private readonly links: FlowLinks,
    private readonly view: FlowView,
  ) {}

  /** "]" (dir 1) / "[" (dir -1): the next / previous message end on the selected row; false when nothing is selected. */
  async step(dir: 1 | -1): Promise<boolean> {
    const m = this.selection.message;
    const s = this.selection.selected;
    let row: number;
    let t: number;
    let after: { id: number; end: End } | null = null;
    if (m) {
      ({ row, time: t } = endOf(m, m.focus));
      after = { id: m.id, end: m.focus };
    } else if (s) {
      // From a slice: its first message end at or after its begin, or the last before it.
      row = s.row;
      t = dir > 0 ? s.begin - 0.5 : s.begin;
    } else {
      return false;
    }
    const w = this.view.window();
    const seq = ++this.seq;
    const ev = await this.links.nextMessage(row, t, dir, w.to - w.from, after);
    if (seq !== this.seq || !ev) return ev !== null;
    this.selection.selectMessage(ev.message.id, ev.message, ev.end);
    const at = endOf(ev.message, ev.end);
    this.view.reveal(at.row, at.time);
    return true;
  }

  /** Selects message `m` with the flow on its end `focus`, showing both its ends. */
  show(m: MessageEnds, focus: End): void {
    this.seq++;
    this.selection.selectMessage(m.id, m, focus);
    this.view.setWindow(windowShowingMessage(this.view.window(), m));
    const at = endOf(m, focus);
    this.view.reveal(at.row, at.time);
  }

  /** "p": the selected message's other end, brought into view. */
  partner(): boolean {
    const m = this.selection.flipFocus();
    if (!m) return false;
    const at = endOf(m, m.focus);
    if (at.row >= 0) this.view.reveal(at.row, at.time);
    return true;
  }
}
