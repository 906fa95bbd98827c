// What the analyses found: repair summary, total waiting, and the findings by
// kind; every finding with a place in the timeline jumps there when clicked.
import type { Diagnostics, Finding } from '../../protocol/api.gen';
import { el, onActivate, RequestSeq, StatusLine } from '../common/dom';
import type { View, ViewContext, ViewFactory } from '../context';
import { groupFindings, repairText, severityStyle, waitText } from './diagnostics_groups';

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
      .get('diagnostics', {})
      .then((d) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.clear();
        this.render(d);
      })
      .catch((err: unknown) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.error(err);
      });
  }

  unmount(): void {
    this.seq.invalidate();
  }

  private render(d: Diagnostics): void {
    const parts: HTMLElement[] = [
      el('div', { class: 'repair-summary', 'data-testid': 'repair-summary' }, repairText(d.repair)),
      el('div', { class: 'wait-total', 'data-testid': 'wait-total' }, waitText(d.wait_total)),
    ];
    const groups = groupFindings(d.findings);
    if (groups.length === 0) parts.push(el('div', { class: 'no-findings', 'data-testid': 'no-findings' }, 'No problems found.'));
    for (const g of groups) {
      const style = severityStyle(g.severity);
      const heading = el('h3', { class: 'finding-group-title' }, el('span', { class: 'severity-icon', 'aria-hidden': 'true' }, `${style.icon} `), `${g.title} (${g.findings.length})`);
      heading.style.color = style.color;
      const list = el('ul', { class: 'findings' }, ...g.findings.map((f) => this.item(f)));
      parts.push(el('section', { class: 'finding-group', 'data-testid': 'finding-group', 'data-kind': g.kind }, heading, list));
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
        role: placed ? 'button' : undefined,
        tabindex: placed ? 0 : undefined,
        title: placed ? 'show in the timeline' : undefined,
      },
      icon,
      ' ',
      f.text,
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
