// A fixture of the timeline's unit tests: two ranks of one thread each, the
// first with one nesting level, over 1000 ns.
import type { LayoutInput } from '../../base/layout';

export const TWO_RANKS: LayoutInput = {
  processes: [
    { index: 0, rank: 0, pid: 1, host: 'h', name: 'rank 0', executable: '', arguments: '', clock_offset_ns: 0, clock_drift_ppm: 0, threads: [0] },
    { index: 1, rank: 1, pid: 2, host: 'h', name: 'rank 1', executable: '', arguments: '', clock_offset_ns: 0, clock_drift_ppm: 0, threads: [1] },
  ],
  threads: [
    { index: 0, process: 0, tid: 1, name: 'main', begin: 0, end: 1000, records: 4, max_depth: 1 },
    { index: 1, process: 1, tid: 2, name: 'main', begin: 0, end: 1000, records: 4, max_depth: 0 },
  ],
  counters: [],
};
