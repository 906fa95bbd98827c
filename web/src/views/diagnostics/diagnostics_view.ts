// What the analyses found: repair summary, total waiting, and the findings by
// kind; every finding with a place in the timeline jumps there when clicked.
import type { Diagnostics, Finding } from '../../protocol/api.gen';
import { el, onActivate, RequestSeq, StatusLine } from '../common/dom';
import type { ApiClient, View, ViewContext, ViewFactory } from '../context';
import { formatDuration } from '../common/format';
import {
  costText, countWaitKinds, type FindingTotals, groupCount, groupFindings, repairText, severityStyle, WAIT_KINDS, waitText,
} from './diagnostics_groups';

/** Findings per kind asked of /diagnostics (its default, spec/api.toml). */
export const DIAGNOSTICS_LIMIT = 200;
/** Waits fetched whole from /waits to count them by kind; above this only their sum is known. */
export const WAITS_COUNTED = 10000;

/**
 * The totals the lists were cut from: anomalies from /anomalies, waits from
 * /waits (by kind when there are few enough to fetch). What cannot be had is
 * left out; the headings then say less.
 */
async function findingTotals(api: ApiClient, d: Diagnostics): Promise<FindingTotals> {
  const totals: FindingTotals = { byKind: {} };
  const listed = (kind: string): number => d.findings.filter((f) => f.kind === kind).length;
  const anomalies = api.get('anomalies', { limit: 0 }).then((a) => {
    totals.byKind['anomaly'] = a.total;
  });
  const waits = api.get('waits', { limit: 0 }).then(async (w) => {
    totals.waits = w.total.count;
    totals.costByKind = { 'late-sender': w.total.late_sender, 'late-receiver': w.total.late_receiver, collective: w.total.collective };
    const waitsListed = WAIT_KINDS.reduce((n, k) => n + listed(k), 0);
    if (w.total.count <= waitsListed || w.total.count > WAITS_COUNTED) return;
    const all = await api.get('waits', { limit: w.total.count });
    const byKind = countWaitKinds(all.longest);
    for (const k of WAIT_KINDS) totals.byKind[k] = byKind[k] ?? 0;
  });
  await Promise.allSettled([anomalies, waits]);
  return totals;
}

export class DiagnosticsView implements View {
  private readonly status = new StatusLine();
  private readonly seq = new RequestSeq();
  private body!: HTMLDivElement;

  constructor(private readonly ctx: ViewContext) {}

  mount(host: HTMLElement): void {
    host.classList.add('diagnostics-view');
    this.body = el('div', { class: 'diagnostics' });
    host.append(this.status.element, this.body);
    const n = this.seq.next();
    this.status.loading();
    this.ctx.api
      .get('diagnostics', { limit: DIAGNOSTICS_LIMIT })
      .then(async (d) => {
        const totals = await findingTotals(this.ctx.api, d);
        if (!this.seq.isCurrent(n)) return;
        this.status.clear();
        this.render(d, totals);
      })
      .catch((err: unknown) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.error(err);
      });
  }

  unmount(): void {
    this.seq.invalidate();
  }

  private render(d: Diagnostics, totals: FindingTotals): void {
    const parts: HTMLElement[] = [
      el('div', { class: 'repair-summary', 'data-testid': 'repair-summary' }, repairText(d.repair)),
      el('div', { class: 'wait-total', 'data-testid': 'wait-total' }, waitText(d.wait_total)),
    ];
    // Kinds whose every finding was cut still get a group: 'Late receivers (0 of 50)'.
    const cutOut = Object.entries(totals.byKind).filter(([, t]) => (t ?? 0) > 0).map(([k]) => k);
    const groups = groupFindings(d.findings, cutOut);
    const waitsListed = d.findings.filter((f) => WAIT_KINDS.includes(f.kind)).length;
    if (groups.length === 0) parts.push(el('div', { class: 'no-findings', 'data-testid': 'no-findings' }, 'No problems found.'));
    for (const g of groups) {
      const style = severityStyle(g.severity);
      const count = groupCount(g, DIAGNOSTICS_LIMIT, totals, waitsListed);
      const heading = el('h3', { class: 'finding-group-title', 'data-testid': 'finding-group-title' }, el('span', { class: 'severity-icon', 'aria-hidden': 'true' }, `${style.icon} `), count.heading);
      heading.style.color = style.color;
      const cost = costText(g, totals.costByKind?.[g.kind], count.cut);
      const costLine = el('div', { class: 'finding-group-cost', 'data-testid': 'finding-group-cost', style: 'color: #677084', hidden: cost === '' ? true : undefined }, cost);
      const list = el('ul', { class: 'findings' }, ...g.findings.map((f) => this.item(f)));
      parts.push(el('section', {
        class: 'finding-group', 'data-testid': 'finding-group', 'data-kind': g.kind,
        'data-shown': g.findings.length, 'data-total': count.total ?? undefined, 'data-cut': String(count.cut),
        'data-cost': g.cost,
      }, heading, costLine, list));
    }
    this.body.replaceChildren(...parts);
  }

  private item(f: Finding): HTMLLIElement {
    const style = severityStyle(f.severity);
    const icon = el('span', { class: 'severity-icon', title: style.label, 'aria-label': style.label }, style.icon);
    icon.style.color = style.color;
    const placed = f.row >= 0;
    const li = el(
      'li',
      {
        class: `finding severity-${f.severity}${placed ? ' clickable' : ''}`,
        'data-testid': 'finding',
        'data-kind': f.kind,
        'data-severity': f.severity,
        'data-cost': f.cost,
        role: placed ? 'button' : undefined,
        tabindex: placed ? 0 : undefined,
        title: placed ? 'show in the timeline' : undefined,
      },
      icon,
      ' ',
      f.text,
      ...(f.cost > 0 ? [el('span', { class: 'finding-cost', style: 'color: #677084', title: 'time lost' }, ` — ${formatDuration(f.cost)} lost`)] : []),
    );
    if (placed) {
      li.style.cursor = 'pointer';
      onActivate(li, () => this.ctx.timeline.jumpTo({ row: f.row, begin: f.begin, end: f.end, slice: f.slice }));
    }
    return li;
  }
}

export const DIAGNOSTICS_VIEW: ViewFactory = {
  id: 'diagnostics',
  title: 'Diagnostics',
  create: (ctx) => new DiagnosticsView(ctx),
};
