// Which rows the timeline lays out where, and bringing a row into view: the
// folded host and process groups (groups.ts), the user's row view
// (row_order.ts) over the window, the RowLayout made of both, and the
// scrolling that shows a row — in the normal mode (unfolding its groups) or
// in the compact mode's bands, which stay. TimelineView holds one.
import { RowLayout } from '../../base/layout';
import type { TimeWindow } from '../../base/time_scale';
import type { TraceSummary } from '../../protocol/api.gen';
import type { ApiClient } from '../context';
import type { CompactMode } from './compact_mode';
import type { TimelineGeometry } from './geometry';
import { FoldedGroups } from './groups';
import { RowOrder } from './row_order';
import type { RowScroll } from './scroll';

/** What the rows need of the timeline. */
export interface TimelineRowsHost {
  api(): ApiClient;
  summary(): TraceSummary;
  window(): TimeWindow;
  /** The geometry of the mode on screen (rows area, scroll). */
  geometry(): TimelineGeometry;
  readonly compact: CompactMode;
  readonly scroll: RowScroll;
  /** Turns the compact mode off (the normal mode's scroll comes back). */
  leaveCompact(): void;
  /** The layout changed: draw again and report the status. */
  laidOut(): void;
  /** The row view (sort, filter, pins…) changed. */
  viewChanged(): void;
  onError(e: unknown): void;
}

/**
 * The scroll that puts content [top, top + height) a third down the rows
 * area when any of it is off screen; null when it is all on screen already.
 */
export function scrollToShow(g: TimelineGeometry, top: number, height: number): number | null {
  const { top: vTop, bottom: vBottom } = g.visibleContent();
  if (top >= vTop && top + height <= vBottom) return null;
  return top - g.rowsHeight / 3;
}

export class TimelineRows {
  private readonly folded = new FoldedGroups();
  /** which rows are shown, in what order: its view, set() and togglePin() */
  readonly order: RowOrder;
  /** the normal mode's rows as laid out now */
  layout: RowLayout;

  constructor(private readonly host: TimelineRowsHost) {
    this.layout = new RowLayout(host.summary());
    this.order = new RowOrder({
      api: () => host.api(),
      summary: () => host.summary(),
      changed: () => {
        this.relayout();
        host.viewChanged();
      },
      onError: (e) => host.onError(e),
    });
  }

  /** The folded host and process groups (their keys). */
  collapsed(): string[] {
    return this.folded.list();
  }

  /** Folds exactly the groups `keys`. */
  setCollapsed(keys: readonly string[]): void {
    this.folded.replace(keys);
    this.relayout();
  }

  toggleGroup(key: string): void {
    this.folded.toggle(key);
    this.relayout();
  }

  /** Lays the rows out again (groups folded, rows shown over the window). */
  relayout(): void {
    const shown = this.order.shown(this.host.window());
    this.layout = new RowLayout(this.host.summary(), this.folded.set, shown ?? undefined);
    this.host.compact.setRows(shown?.rows ?? null);
    this.host.scroll.update();
    this.host.laidOut();
  }

  /** The window moved: lay out again when the rows shown follow it (empty rows hidden). */
  windowMoved(win: TimeWindow): void {
    if (this.order.changedFor(win)) this.relayout();
  }

  /** Leaves the compact mode, expands the groups hiding `row` and scrolls it into view (a slice shown is a slice in its row). */
  reveal(row: number): void {
    if (this.host.compact.on) this.host.leaveCompact();
    this.show(row);
  }

  /**
   * Scrolls `row` into view in the mode on screen: in the normal mode its
   * folded groups open; in the compact mode its band comes into view.
   */
  show(row: number): void {
    const { compact, scroll } = this.host;
    const g = this.host.geometry();
    let to: number | null;
    if (compact.on) {
      const bands = compact.layout(g.rowsHeight);
      const band = bands.bandOfRow(row);
      if (band < 0) return;
      to = scrollToShow(g, bands.bandTop(band), bands.bandHeight);
    } else {
      if (this.folded.unfoldFor(this.host.summary(), row)) this.relayout();
      const top = this.layout.rowTop(row);
      if (Number.isNaN(top)) return; // filtered out
      to = scrollToShow(this.host.geometry(), top, this.layout.itemOfRow(row)?.height ?? 0);
    }
    if (to !== null) scroll.set(to);
  }

  /** The normal mode scrolled to `row` at the top (a compact band opened). */
  openAt(row: number): void {
    this.host.leaveCompact();
    if (this.folded.unfoldFor(this.host.summary(), row)) this.relayout();
    this.host.scroll.set(this.layout.rowTop(row));
  }
}
