// The Source view's rows: the file's text and the time at each line (no DOM).
import type { SourceFileEntry, SourceLineState, SourceText } from '../../protocol/api.gen';

export interface SourceRow {
  /** 1-based */
  line: number;
  text: string;
  /** inclusive ns at the line's call sites; 0 without */
  total: number;
  self: number;
  count: number;
  /** total / the file's largest line total, 0..1 */
  heat: number;
  states: SourceLineState[];
}

/** One row per line of the text, and per annotated line past its end (a file changed since the run). */
export function sourceRows(s: SourceText): SourceRow[] {
  const byLine = new Map(s.lines.map((l) => [l.line, l]));
  const max = s.lines.reduce((m, l) => Math.max(m, l.total), 0);
  const last = s.lines.reduce((m, l) => Math.max(m, l.line), s.text.length);
  const rows: SourceRow[] = [];
  for (let line = 1; line <= last; ++line) {
    const a = byLine.get(line);
    rows.push({
      line,
      text: s.text[line - 1] ?? '',
      total: a?.total ?? 0,
      self: a?.self ?? 0,
      count: a?.count ?? 0,
      heat: a && max > 0 ? a.total / max : 0,
      states: a?.states ?? [],
    });
  }
  return rows;
}

/** The entry of `file` (exactly as the trace names it); else the found file with the most time; else the first. */
export function pickFile(files: readonly SourceFileEntry[], file: string | null): SourceFileEntry | null {
  const named = file === null ? undefined : files.find((f) => f.file === file);
  if (named) return named;
  const found = files.filter((f) => f.found).sort((a, b) => b.total - a.total);
  return found[0] ?? files[0] ?? null;
}
