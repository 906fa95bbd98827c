// Grouping and texts of the diagnostics panel. Pure.
import type { Finding, RepairSummary } from '../../protocol/api.gen';
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
  findings: Finding[];
  /** the worst severity in the group */
  severity: string;
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
 * Findings by kind, in KINDS order (unknown kinds after, in order of first
 * appearance); within a kind, the server's order (worst first) is kept.
 */
export function groupFindings(findings: readonly Finding[]): FindingGroup[] {
  const byKind = new Map<string, Finding[]>();
  for (const f of findings) {
    let list = byKind.get(f.kind);
    if (!list) byKind.set(f.kind, (list = []));
    list.push(f);
  }
  const order = [...KINDS.map((k) => k.kind).filter((k) => byKind.has(k)), ...[...byKind.keys()].filter((k) => !KINDS.some((x) => x.kind === k))];
  return order.map((kind) => {
    const list = byKind.get(kind)!;
    let worst = list[0]!.severity;
    for (const f of list) if (severityRank(f.severity) < severityRank(worst)) worst = f.severity;
    return { kind, title: KINDS.find((k) => k.kind === kind)?.title ?? kind, findings: list, severity: worst };
  });
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
