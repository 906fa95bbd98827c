// Links under the details: once a message's or a slice's details are shown,
// asks what links it to other events (engine/links.ts) and adds them to the
// panel (widgets/details_links.ts); a link clicked selects the send or
// receive slice, or the message, on the timeline and brings it into view.
// Only the newest details get their links: an older answer is dropped.
import { endOf, type End, type MessageEnds, type TraceLinks } from '../engine/links';
import type { Details, TraceSummary } from '../protocol/api.gen';
import type { TimelineTarget } from '../views/context';
import type { MessageFlow } from '../views/timeline/flow';
import type { TimelineSelection } from '../views/timeline/selection';
import type { DetailsPanel } from '../widgets/details';
import { messageLinks, sliceLinks } from '../widgets/details_links';

/** What the links need of the timeline (views/timeline/timeline.ts). */
export interface LinkedTimeline {
  readonly links: TraceLinks;
  readonly selection: Pick<TimelineSelection, 'message'>;
  readonly flow: Pick<MessageFlow, 'show'>;
  jumpTo(target: TimelineTarget): void;
  reveal(row: number, time: number): void;
}

export class LinkedDetails {
  private seq = 0;

  constructor(
    private readonly timeline: LinkedTimeline,
    private readonly panel: () => DetailsPanel,
    private readonly summary: () => TraceSummary,
  ) {}

  /** Details were shown (or the panel emptied: null): adds their links when they come. */
  shown(d: Details | null): void {
    const seq = ++this.seq;
    if (!d) return;
    const current = (): boolean => seq === this.seq && this.panel().current === d;
    const links = this.timeline.links;
    if (d.kind === 'message') {
      const sel = this.timeline.selection.message;
      const ends = sel && sel.id === d.id ? Promise.resolve<MessageEnds>(sel) : links.message(d.id, d.row, d.begin);
      void ends.then((m) => {
        if (m && current()) this.panel().showLinks(messageLinks(this.summary(), m, (end) => void this.jumpToSlice(m, end)));
      }, () => undefined);
    } else if (d.kind === 'slice') {
      void links.slice(d.id, d.row, d.begin, d.end).then((l) => {
        if (!current()) return;
        this.panel().showLinks(sliceLinks(this.summary(), d.end - d.begin, l, (m, end) => this.timeline.flow.show(m, end)));
      }, () => undefined);
    }
  }

  /** Selects the slice in which the message's `end` lies and zooms to it (or shows the end when no slice holds it). */
  async jumpToSlice(m: MessageEnds, end: End): Promise<void> {
    const { row, time } = endOf(m, end);
    const s = await this.timeline.links.sliceAt(row, time, end);
    if (s) this.timeline.jumpTo({ row: s.row, begin: s.begin, end: s.end, slice: s.id });
    else this.timeline.reveal(row, time);
  }
}
