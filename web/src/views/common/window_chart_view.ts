// The frame of a panel view that draws one chart of data fetched for the
// timeline's window (CPUs, Loops): it refetches, debounced, when the window
// moves and at once on a live trace's new snapshot; drops answers to requests
// that are no longer the newest; exports its chart at the chart's width.
import type { TraceSummary } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import type { View, ViewContext } from '../context';
import { ChartCanvas } from './chart_canvas';
import { debounce, releaseChartView, RequestSeq, StatusLine } from './dom';

export abstract class WindowChartView implements View {
  protected readonly status = new StatusLine();
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
  /** After every draw: the drawing's coordinates on the canvas's data-* attributes (tests). */
  protected abstract exposeLayout(): void;
  /** Pointer moves over the chart, leaves it, clicks it. */
  protected abstract move(ev: MouseEvent): void;
  protected abstract leave(): void;
  protected abstract click(ev: MouseEvent): void;

  /** In mount(): the chart in `box` with the tooltip `tip` over it. */
  protected attachChart(box: HTMLElement, tip: HTMLElement, testid: string, height: number): void {
    this.chart = new ChartCanvas(
      (p) => {
        this.paint(p);
        this.exposeLayout();
      },
      { height, testid, heightFor: (w) => this.heightFor(w) },
    );
    this.chart.attach(box);
    box.append(tip);
    const c = this.chart.canvas;
    c.addEventListener('mousemove', (ev) => this.move(ev));
    c.addEventListener('mouseleave', () => this.leave());
    c.addEventListener('click', (ev) => this.click(ev));
  }

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

  /** Asks `get` for the timeline's window and hands the answer to `use`
   *  while it is the newest request; a loading line until the first answer
   *  (`shown` false), an error line when it fails. */
  protected fetchWindow<T>(shown: boolean, get: (from: number, to: number) => Promise<T>, use: (r: T, from: number, to: number) => void): void {
    if (!this.chart) return;
    const { from, to } = this.ctx.timeline.window();
    if (!(to > from)) return;
    const n = this.seq.next();
    if (!shown) this.status.loading();
    get(from, to)
      .then((r) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.clear();
        use(r, from, to);
      })
      .catch((err: unknown) => {
        if (this.seq.isCurrent(n)) this.status.error(err);
      });
  }

  /** Puts `tip` by the pointer at (x, y), left of it when it would overflow the chart. */
  protected placeTooltip(tip: HTMLElement, x: number, y: number, guessWidth: number): void {
    const w = this.chart?.width ?? 600;
    const tw = tip.offsetWidth || guessWidth;
    tip.style.left = `${x + 12 + tw > w ? Math.max(0, x - tw - 12) : x + 12}px`;
    tip.style.top = `${y + 12}px`;
  }

  unmount(): void {
    releaseChartView(this.seq, this.debouncedLoad, this.unsubscribe, this.chart);
    this.chart = null;
  }

  exportSize(): { width: number; height: number } {
    const width = this.chart?.width ?? 800;
    return { width, height: this.heightFor(width) };
  }
}
