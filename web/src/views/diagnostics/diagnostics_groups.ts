// Grouping and texts of the diagnostics panel. Pure.
import type { Finding, RepairSummary, WaitInstance } from '../../protocol/api.gen';
import { formatCount, formatDuration } from '../common/format';

/** Kinds in the order the panel shows them, with their group titles. */
export const KINDS: readonly { kind: string; title: string }[] = [
  { kind: 'deadlock', title: 'Deadlocks' },
  { kind: 'blocked', title: 'Blocked calls' },
  { kind: 'late-sender', title: 'Late senders' },
  { kind: 'late-receiver', title: 'Late receivers' },
  { kind: 'collective', title: 'Collective waits' },
  { kind: 'imbalance', title: 'Load imbalance' },
  { kind: 'anomaly', title: 'Anomalies' },
  { kind: 'repair', title: 'Clock repairs' },
  { kind: 'problem', title: 'Load problems' },
];

export interface FindingGroup {
  kind: string;
  title: string;
  /** costliest first */
  findings: Finding[];
  /** the worst severity in the group */
  severity: string;
  /** ns the listed findings cost together */
  cost: number;
}

const SEVERITY_RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

export function severityRank(s: string): number {
  return SEVERITY_RANK[s] ?? 3;
}

export const SEVERITY_STYLE: Record<string, { icon: string; color: string; label: string }> = {
  error: { icon: '⛔', color: '#c62828', label: 'error' },
  warning: { icon: '⚠', color: '#e65100', label: 'warning' },
  info: { icon: 'ℹ', color: '#1565c0', label: 'info' },
};

export function severityStyle(s: string): { icon: string; color: string; label: string } {
  return SEVERITY_STYLE[s] ?? { icon: '•', color: '#616161', label: s };
}

/**
 * Findings by kind, costliest first within a kind (findings that cost no
 * time keep the server's order), the kinds by their worst severity, then by
 * what their findings cost together, then in KINDS order (unknown kinds
 * after, in order of first appearance). `alsoKinds` get a group even with no
 * finding listed (a kind that has findings, all cut by the limit).
 */
export function groupFindings(findings: readonly Finding[], alsoKinds: readonly string[] = []): FindingGroup[] {
  const byKind = new Map<string, Finding[]>();
  for (const k of alsoKinds) byKind.set(k, []);
  for (const f of findings) {
    let list = byKind.get(f.kind);
    if (!list) byKind.set(f.kind, (list = []));
    list.push(f);
  }
  const order = [...KINDS.map((k) => k.kind).filter((k) => byKind.has(k)), ...[...byKind.keys()].filter((k) => !KINDS.some((x) => x.kind === k))];
  const groups = order.map((kind) => {
    const list = byKind.get(kind)!.sort((a, b) => b.cost - a.cost);
    let worst = list[0]?.severity ?? 'info';
    for (const f of list) if (severityRank(f.severity) < severityRank(worst)) worst = f.severity;
    const cost = list.reduce((sum, f) => sum + f.cost, 0);
    return { kind, title: KINDS.find((k) => k.kind === kind)?.title ?? kind, findings: list, severity: worst, cost };
  });
  // Array.prototype.sort is stable: equal groups keep the KINDS order.
  return groups.sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || b.cost - a.cost);
}

/**
 * What a group's findings cost: '12.5 ms lost' for a whole list; for a cut
 * list with a known total (the wait kinds, from /waits) '45 ms lost in all,
 * 12.5 ms by the 200 listed'; '' when they cost no time.
 */
export function costText(g: FindingGroup, total: number | undefined, cut: boolean): string {
  if (cut && total !== undefined && total > g.cost) {
    return `${formatDuration(total)} lost in all, ${formatDuration(g.cost)} by the ${formatCount(g.findings.length)} listed`;
  }
  if (g.cost <= 0) return '';
  return `${formatDuration(g.cost)} lost${cut ? ` by the ${formatCount(g.findings.length)} listed` : ''}`;
}

/** One line about causal repair. */
export function repairText(r: RepairSummary): string {
  if (r.violations_before === 0 && r.events_moved === 0) return 'Clock repair: no clock condition violations.';
  let s =
    `Clock repair: ${formatCount(r.violations_before)} clock condition violations before, ` +
    `${formatCount(r.violations_after)} after; ${formatCount(r.events_moved)} events moved`;
  if (r.events_moved > 0) s += `, by at most ${formatDuration(r.max_shift)}`;
  return s + '.';
}

export function waitText(ns: number): string {
  return `Total wait time: ${formatDuration(ns)}`;
}

/** The kinds /diagnostics lists together: the `limit` longest waits of all three. */
export const WAIT_KINDS: readonly string[] = ['late-sender', 'late-receiver', 'collective'];

/**
 * How many findings there were before the server's limit, as far as the API
 * tells: /diagnostics has no totals (spec/api.toml), /anomalies and /waits do.
 */
export interface FindingTotals {
  /** findings of one kind in all: 'anomaly' from /anomalies, wait kinds counted from /waits */
  byKind: Partial<Record<string, number>>;
  /** waits of every kind together (/waits total.count) */
  waits?: number;
  /** ns lost in all, by kind, when known: the wait kinds from /waits' totals */
  costByKind?: Partial<Record<string, number>>;
}

export interface GroupCount {
  /** 'Late senders (200 of 649)' */
  heading: string;
  /** whether the list stops before the end */
  cut: boolean;
  /** the findings in all, when known */
  total: number | null;
}

/**
 * A group's heading, saying when its list is cut: with a known total 'Late
 * senders (200 of 649)'; a wait kind whose own total is unknown tells how
 * many waits of all kinds are listed; any other list as long as the limit
 * 'Deadlocks (200 listed, maybe more)'.
 */
export function groupCount(g: FindingGroup, limit: number, totals: FindingTotals, waitsListed: number): GroupCount {
  const n = g.findings.length;
  const shown = formatCount(n);
  const total = totals.byKind[g.kind];
  if (total !== undefined && total > n) return { heading: `${g.title} (${shown} of ${formatCount(total)})`, cut: true, total };
  if (total !== undefined) return { heading: `${g.title} (${shown})`, cut: false, total };
  const wait = WAIT_KINDS.includes(g.kind);
  if (wait && totals.waits !== undefined) {
    if (totals.waits <= waitsListed) return { heading: `${g.title} (${shown})`, cut: false, total: n };
    return {
      heading: `${g.title} (${shown}; the longest ${formatCount(waitsListed)} of ${formatCount(totals.waits)} waits of all kinds are listed)`,
      cut: true,
      total: null,
    };
  }
  if ((wait ? waitsListed : n) >= limit) return { heading: `${g.title} (${shown} listed, maybe more)`, cut: true, total: null };
  return { heading: `${g.title} (${shown})`, cut: false, total: n };
}

/** Waits by kind, from /waits' `longest` when it holds them all. */
export function countWaitKinds(instances: readonly WaitInstance[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const w of instances) out[w.kind] = (out[w.kind] ?? 0) + 1;
  return out;
}
