import { describe, expect, it } from 'vitest';
import { parseHex } from '../../base/color';
import { statePalette } from './palette';

/** CIE L*a*b* of '#rrggbb' (sRGB, D65). */
function lab(hex: string): [number, number, number] {
  const [r, g, b] = parseHex(hex)!.map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const xyz = [
    (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
    0.2126 * r + 0.7152 * g + 0.0722 * b,
    (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
  ].map((t) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116)) as [number, number, number];
  return [116 * xyz[1] - 16, 500 * (xyz[0] - xyz[1]), 200 * (xyz[1] - xyz[2])];
}

/** CIE76 colour difference: about 2.3 is just noticeable, 10 plainly different. */
function deltaE(a: string, b: string): number {
  const [x, y] = [lab(a), lab(b)];
  return Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
}

function hue(hex: string): number {
  const [r, g, b] = parseHex(hex)!.map((v) => v / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

const state = (name: string, category = 'comm', color = '') => ({ name, category, color });

// The states of the MPI demo and of the synthetic MPI trace, and the recorder's.
const MPI_RUN = [
  state('parallax:flush', 'internal'),
  state('MPI_Init'),
  state('MPI_Comm_rank'),
  state('MPI_Comm_size'),
  state('MPI_Finalize'),
  state('MPI_Send'),
  state('MPI_Recv'),
  state('MPI_Isend'),
  state('MPI_Irecv'),
  state('MPI_Wait'),
  state('MPI_Waitall'),
  state('MPI_Allreduce'),
  state('MPI_Bcast'),
  state('MPI_Barrier'),
  state('compute', ''),
  state('solve', ''),
];

describe('statePalette', () => {
  it('gives every state of an MPI run a colour plainly different from every other', () => {
    const colors = statePalette(MPI_RUN);
    for (let i = 0; i < colors.length; i++)
      for (let j = i + 1; j < colors.length; j++)
        expect(deltaE(colors[i]!, colors[j]!), `${MPI_RUN[i]!.name} ${colors[i]} vs ${MPI_RUN[j]!.name} ${colors[j]}`).toBeGreaterThan(10);
  });

  it('groups families by hue: compute green, point-to-point blue, collectives orange, synchronising red', () => {
    const colors = new Map(statePalette(MPI_RUN).map((c, i) => [MPI_RUN[i]!.name, c]));
    const within = (name: string, lo: number, hi: number) => {
      const h = hue(colors.get(name)!);
      expect(h >= lo && h <= hi, `${name} ${colors.get(name)} hue ${h.toFixed(0)} in ${lo}..${hi}`).toBe(true);
    };
    for (const n of ['compute', 'solve']) within(n, 60, 180);
    for (const n of ['MPI_Send', 'MPI_Recv', 'MPI_Isend', 'MPI_Irecv', 'MPI_Wait', 'MPI_Waitall']) within(n, 195, 230);
    for (const n of ['MPI_Allreduce', 'MPI_Bcast']) within(n, 15, 45);
    within('MPI_Barrier', 340, 360);
  });

  it('keeps a recorded colour, and a state its colour whatever order the trace lists its states in', () => {
    const withRecorded = [state('MPI_Send', 'comm', '#FF0000'), ...MPI_RUN.slice(1)];
    expect(statePalette(withRecorded)[0]).toBe('#ff0000');
    const forward = new Map(statePalette(MPI_RUN).map((c, i) => [MPI_RUN[i]!.name, c]));
    const reversed = [...MPI_RUN].reverse();
    statePalette(reversed).forEach((c, i) => expect(c).toBe(forward.get(reversed[i]!.name)));
  });
});
