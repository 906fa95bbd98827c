// Texts of the process information table. Pure.
import type { ProcessInfo, ThreadInfo } from '../../protocol/api.gen';
import { formatCount, formatDuration, formatTimeSpan } from '../common/format';

/** 'executable arguments', or '' when neither is known. */
export function commandLine(p: Pick<ProcessInfo, 'executable' | 'arguments'>): string {
  return [p.executable, p.arguments].filter((s) => s !== '').join(' ');
}

/** A signed clock offset: '+1.5 µs', '-20 ns', '0'. */
export function formatOffset(ns: number): string {
  if (ns === 0) return '0';
  return `${ns > 0 ? '+' : '-'}${formatDuration(Math.abs(ns))}`;
}

/** A drift correction: '+2.5 ppm', '0'. */
export function formatDrift(ppm: number): string {
  if (ppm === 0) return '0';
  return `${ppm > 0 ? '+' : ''}${Number(ppm.toPrecision(4))} ppm`;
}

export function formatRank(rank: number): string {
  return rank >= 0 ? String(rank) : '—';
}

/** '12.5 ms – 1.2 s' of a thread's first and last record. */
export function threadSpan(t: Pick<ThreadInfo, 'begin' | 'end'>): string {
  return formatTimeSpan(t.begin, t.end).join(' – ');
}

export function threadLabel(t: Pick<ThreadInfo, 'name' | 'tid'>): string {
  return `${t.name} (tid ${t.tid})`;
}

export function recordsText(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'record' : 'records'}`;
}
