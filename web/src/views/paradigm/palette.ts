// The default state colours: a hue per paradigm (paradigms.ts), so that
// compute and communication read apart at a glance and the MPI families group
// (point-to-point blue, collectives orange, one-sided purple, synchronising
// red, I/O brown), and inside a family each state its own shade, so that no
// two states of a trace look alike. A colour the trace records wins.
import { colorFromName, hslToHex } from '../../base/color';
import { classifyState, type NamedState, type ParadigmId } from './paradigms';

interface Family {
  /** centre hue, degrees */
  hue: number;
  /** hues used around it when the family has many states, degrees */
  spread: number;
  sat: number;
  /** lightness range the shades take, 0..1 */
  light: readonly [number, number];
  /** lightness steps: more where hue tells little (greys) */
  steps: number;
}

const FAMILIES: Record<ParadigmId, Family> = {
  computing: { hue: 120, spread: 120, sat: 0.5, light: [0.36, 0.66], steps: 3 },
  p2p: { hue: 212, spread: 26, sat: 0.62, light: [0.34, 0.72], steps: 3 },
  collective: { hue: 30, spread: 18, sat: 0.88, light: [0.42, 0.7], steps: 3 },
  'one-sided': { hue: 276, spread: 26, sat: 0.45, light: [0.38, 0.72], steps: 3 },
  sync: { hue: 356, spread: 14, sat: 0.7, light: [0.36, 0.7], steps: 3 },
  io: { hue: 28, spread: 14, sat: 0.4, light: [0.26, 0.42], steps: 2 },
  recorder: { hue: 0, spread: 0, sat: 0, light: [0.16, 0.3], steps: 2 },
  other: { hue: 205, spread: 40, sat: 0.2, light: [0.46, 0.86], steps: 6 },
};

/** Shades a family's k states take: lightness steps, each step a hue further. */
function shade(f: Family, i: number, k: number): string {
  if (k <= 1) return hslToHex(f.hue, f.sat, (f.light[0] + f.light[1]) / 2);
  const steps = Math.min(k, f.steps);
  const light = f.light[0] + ((f.light[1] - f.light[0]) * (i % steps)) / (steps - 1);
  const spread = Math.min(f.spread, 8 * (k - 1));
  const hue = f.hue - spread / 2 + (spread * i) / (k - 1);
  return hslToHex(hue, f.sat, light);
}

/**
 * The colour of each state of a trace: its recorded colour ('#rrggbb') when
 * it has one, else a shade of its paradigm's family. The states of a family
 * are shaded in name order, so a state keeps its colour while the trace's
 * set of states stays the same.
 */
export function statePalette(states: readonly (NamedState & { color: string })[]): string[] {
  const out = states.map((s) => (/^#[0-9a-f]{6}$/i.test(s.color) ? s.color.toLowerCase() : ''));
  const byFamily = new Map<ParadigmId, number[]>();
  states.forEach((s, i) => {
    if (out[i] !== '') return;
    const id = classifyState(s);
    byFamily.set(id, [...(byFamily.get(id) ?? []), i]);
  });
  for (const [id, members] of byFamily) {
    members.sort((a, b) => (states[a]!.name < states[b]!.name ? -1 : states[a]!.name > states[b]!.name ? 1 : a - b));
    members.forEach((state, i) => (out[state] = shade(FAMILIES[id], i, members.length)));
  }
  return out.map((c, i) => c || colorFromName(states[i]!.name));
}
