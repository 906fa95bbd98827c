// A dynamic loop of two threads for the loop view's tests. Only imported by *.test.ts.
import type { OmpChunk, OmpLoop } from '../../protocol/api.gen';

/** Loop 1: iterations 0..31 in four chunks of 8, threads 0 and 1 alternating, times measured. */
export function dynamicLoop(): { loop: OmpLoop; chunks: OmpChunk[] } {
  const loop: OmpLoop = { id: 1, process: 0, begin: 1000, end: 2000, first: 0, last: 31, iterations: 32, threads: 2, chunks: 4, schedule: 'dynamic' };
  const chunks: OmpChunk[] = [
    { row: 1, thread_num: 1, first: 0, last: 7, begin: 1000, end: 1300, estimated: false },
    { row: 0, thread_num: 0, first: 8, last: 15, begin: 1010, end: 1400, estimated: false },
    { row: 1, thread_num: 1, first: 16, last: 23, begin: 1300, end: 1700, estimated: false },
    { row: 0, thread_num: 0, first: 24, last: 31, begin: 1400, end: 2000, estimated: false },
  ];
  return { loop, chunks };
}
