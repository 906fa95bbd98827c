// "Nice" ruler ticks: steps of 1, 2 or 5 times a power of ten.

export interface Ticks {
  step: number;
  /** tick positions, ascending, within [from, to] */
  values: number[];
}

/** The smallest nice step (1, 2, 5 × 10^k) of at least `rough`. */
export function niceStep(rough: number): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const power = Math.pow(10, Math.floor(Math.log10(rough)));
  const f = rough / power;
  // Guard against 0.999999 from floating point.
  const nice = f <= 1 + 1e-9 ? 1 : f <= 2 + 1e-9 ? 2 : f <= 5 + 1e-9 ? 5 : 10;
  return nice * power;
}

/** Ticks over [from, to] at least `minGap` units apart, at most about `maxTicks`. */
export function niceTicks(from: number, to: number, maxTicks: number): Ticks {
  if (!(to > from) || maxTicks < 1) return { step: 1, values: [] };
  const step = niceStep((to - from) / maxTicks);
  const values: number[] = [];
  const first = Math.ceil(from / step - 1e-9);
  const last = Math.floor(to / step + 1e-9);
  for (let i = first; i <= last && values.length <= maxTicks * 3 + 2; i++) {
    // i * step, not a running sum, so no error accumulates.
    values.push(i * step + 0); // + 0 turns -0 into 0
  }
  return { step, values };
}
