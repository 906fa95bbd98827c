// Axis ticks: "nice" round values (1, 2, 5 x 10^k) for linear axes, powers of
// ten (with 2 and 5 between when there are few) for logarithmic ones.

/** The nice step for about `count` ticks over `span`. */
export function niceStep(span: number, count: number): number {
  if (!(span > 0) || !(count > 0)) return 1;
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  const nice = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
  return nice * mag;
}

/** Round values in [min, max], about `count` of them (never more than 2 * count + 1). */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (max < min) [min, max] = [max, min];
  if (max === min) return [min];
  const step = niceStep(max - min, count);
  const first = Math.ceil(min / step - 1e-9);
  const last = Math.floor(max / step + 1e-9);
  const out: number[] = [];
  for (let i = first; i <= last; i++) {
    // Multiply rather than accumulate, and clean float noise (0.30000000000000004).
    out.push(Number((i * step).toPrecision(12)));
  }
  return out;
}

/** Ticks for a logarithmic axis over [min, max] (both > 0). */
export function logTicks(min: number, max: number, count = 6): number[] {
  if (!(min > 0) || !(max > 0)) return [];
  if (max < min) [min, max] = [max, min];
  const lo = Math.floor(Math.log10(min));
  const hi = Math.ceil(Math.log10(max));
  const decades = hi - lo;
  const mults = decades <= 1 ? [1, 2, 5] : decades <= count / 2 ? [1, 3] : [1];
  const stride = Math.max(1, Math.ceil(decades / count));
  const out: number[] = [];
  for (let e = lo; e <= hi; e++) {
    if ((e - lo) % stride !== 0) continue;
    for (const m of mults) {
      const v = Number((m * 10 ** e).toPrecision(12));
      if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) out.push(v);
    }
  }
  return out;
}

/** A linear or logarithmic map from [d0, d1] to [r0, r1]. */
export interface Scale {
  (v: number): number;
  invert(px: number): number;
  domain: [number, number];
  log: boolean;
}

export function linearScale(d0: number, d1: number, r0: number, r1: number): Scale {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const f = ((v: number) => r0 + (v - d0) * k) as Scale;
  f.invert = (px: number) => (k === 0 ? d0 : d0 + (px - r0) / k);
  f.domain = [d0, d1];
  f.log = false;
  return f;
}

/** Logarithmic; values <= 0 map to the start of the range. */
export function logScale(d0: number, d1: number, r0: number, r1: number): Scale {
  const l0 = Math.log(d0);
  const l1 = Math.log(d1);
  const k = l1 === l0 ? 0 : (r1 - r0) / (l1 - l0);
  const f = ((v: number) => (v > 0 ? r0 + (Math.log(v) - l0) * k : r0)) as Scale;
  f.invert = (px: number) => (k === 0 ? d0 : Math.exp(l0 + (px - r0) / k));
  f.domain = [d0, d1];
  f.log = true;
  return f;
}
