// The frame of a panel view that draws one chart of data fetched for the
// timeline's window (CPUs, Loops): it refetches, debounced, when the window
// moves and at once on a live trace's new snapshot; drops answers to requests
// that are no longer the newest; exports its chart at the chart's width.
import type { TraceSummary } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import type { View, ViewContext } from '../context';
import { ChartCanvas } from './chart_canvas';
import { debounce, RequestSeq } from './dom';

export abstract class WindowChartView implements View {
  protected readonly seq = new RequestSeq();
  protected readonly debouncedLoad: ReturnType<typeof debounce<[]>>;
  protected summary: TraceSummary;
  protected chart: ChartCanvas | null = null;
  private unsubscribe: (() => void)[] = [];

  constructor(
    protected readonly ctx: ViewContext,
    debounceMs: number,
  ) {
    this.summary = ctx.summary;
    this.debouncedLoad = debounce(() => this.load(), debounceMs);
  }

  abstract mount(host: HTMLElement): void;
  abstract paint(p: Painter): void;
  /** Fetches for the timeline's window; answers count only while seq says they are current. */
  protected abstract load(): void;
  /** The chart's height at a width. */
  protected abstract heightFor(width: number): number;

  /** At the end of mount(): follow the window and the live updates (and `more`), then load. */
  protected follow(...more: (() => void)[]): void {
    this.unsubscribe.push(
      this.ctx.timeline.onWindowChange(() => this.debouncedLoad()),
      this.ctx.updates.onUpdate((s) => {
        this.summary = s;
        this.load();
      }),
      ...more,
    );
    this.load();
  }

  unmount(): void {
    this.seq.invalidate();
    this.debouncedLoad.cancel();
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    this.chart?.detach();
    this.chart = null;
  }

  exportSize(): { width: number; height: number } {
    const width = this.chart?.width ?? 800;
    return { width, height: this.heightFor(width) };
  }
}
