// Small DOM helpers shared by the panel views.

type Attrs = Record<string, string | number | boolean | undefined>;

/** document.createElement with attributes ('class', 'data-*', ...) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) e.append(c);
  return e;
}

/** The message of anything thrown or rejected. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err !== null && 'error' in err) return String((err as { error: unknown }).error);
  return String(err);
}

/**
 * The one-line status of a view: 'Loading…' while waiting, the error in red,
 * or nothing. Lives in its own element so the content below stays.
 */
export class StatusLine {
  readonly element: HTMLDivElement;

  constructor() {
    this.element = el('div', { class: 'view-status', role: 'status' });
    this.element.hidden = true;
  }

  loading(what = 'Loading…'): void {
    this.set(what, 'view-loading', 'loading');
    this.element.style.color = '';
  }

  error(err: unknown): void {
    this.set(errorMessage(err), 'view-error', 'error');
    this.element.style.color = '#c62828';
  }

  /** A neutral message ('no messages'). */
  message(text: string): void {
    this.set(text, 'view-message', 'message');
    this.element.style.color = '';
  }

  clear(): void {
    this.element.hidden = true;
    this.element.textContent = '';
    this.element.removeAttribute('data-testid');
    this.element.className = 'view-status';
  }

  get text(): string {
    return this.element.hidden ? '' : (this.element.textContent ?? '');
  }

  private set(text: string, cls: string, testid: string): void {
    this.element.hidden = false;
    this.element.className = `view-status ${cls}`;
    this.element.setAttribute('data-testid', `view-${testid}`);
    this.element.textContent = text;
  }
}

/** Calls `fn` once `ms` after the last call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): {
  (...args: A): void;
  cancel(): void;
} {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const call = (...args: A): void => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn(...args);
    }, ms);
  };
  call.cancel = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return call;
}

/**
 * Numbers requests so only the newest answer is used: `const n = seq.next();
 * ... if (!seq.isCurrent(n)) return;`.
 */
export class RequestSeq {
  private n = 0;
  next(): number {
    return ++this.n;
  }
  isCurrent(n: number): boolean {
    return n === this.n;
  }
  /** Makes every outstanding request stale (on unmount). */
  invalidate(): void {
    this.n++;
  }
}

/** A chart view's unmount: the pending load is dropped, answers still to come
 * are stale, the subscriptions end (the list is emptied) and the chart is
 * taken off the page. */
export function releaseChartView(
  seq: RequestSeq,
  load: { cancel(): void },
  unsubscribe: (() => void)[],
  chart: { detach(): void } | null,
): void {
  seq.invalidate();
  load.cancel();
  for (const u of unsubscribe) u();
  unsubscribe.length = 0;
  chart?.detach();
}

/** A hover tooltip positioned inside a relatively positioned chart box; readable without a stylesheet. */
export function tooltipElement(testid: string): HTMLDivElement {
  const t = el('div', { class: 'chart-tooltip', 'data-testid': testid, role: 'tooltip' });
  t.hidden = true;
  Object.assign(t.style, {
    position: 'absolute',
    pointerEvents: 'none',
    background: 'rgba(255,255,255,0.95)',
    color: '#222',
    border: '1px solid #bbb',
    borderRadius: '3px',
    padding: '3px 6px',
    font: '12px sans-serif',
    whiteSpace: 'nowrap',
    zIndex: '10',
  });
  return t;
}

/** Runs `action` when `target` is clicked, or focused and Enter or Space is pressed. */
export function onActivate(target: HTMLElement, action: () => void): void {
  target.addEventListener('click', action);
  target.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      action();
    }
  });
}
