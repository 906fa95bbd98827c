// The Query tab's examples menu: statements from docs/query.md that run as
// written on any MPI trace.

export interface QueryExample {
  /** stable id, the option's value */
  id: string;
  title: string;
  sql: string;
}

export const QUERY_EXAMPLES: readonly QueryExample[] = [
  {
    id: 'states',
    title: 'Time per state',
    sql: 'SELECT state, count(*) AS n, sum(dur) AS total FROM slices GROUP BY state ORDER BY total DESC',
  },
  {
    id: 'slow-receives',
    title: 'The 10 slowest receives and their senders',
    sql: [
      'SELECT s.id, s.rank, s.dur, m.send_rank AS sender, m.tag, m.bytes, m.latency',
      'FROM slices s JOIN messages m ON m.recv_slice = s.id',
      "WHERE s.state = 'MPI_Recv'",
      'ORDER BY s.dur DESC, s.id LIMIT 10',
    ].join('\n'),
  },
  {
    id: 'waits',
    title: 'Wait states by rank and kind',
    sql: ['SELECT rank, kind, count(*) AS n, sum(dur) AS waited', 'FROM wait_states GROUP BY rank, kind ORDER BY waited DESC'].join('\n'),
  },
  {
    id: 'mpi-per-rank',
    title: 'Time in MPI per rank',
    sql: [
      'SELECT rank, sum(self) AS mpi_ns,',
      '       round(100.0 * sum(self) / (SELECT sum(t.end - t.begin) FROM threads t',
      '                                  WHERE t.rank = s.rank), 1) AS percent',
      "FROM slices s WHERE state LIKE 'MPI\\_%' ESCAPE '\\'",
      'GROUP BY rank ORDER BY rank',
    ].join('\n'),
  },
];

/** The SQL shown before any was typed: the first example. */
export const DEFAULT_SQL = QUERY_EXAMPLES[0]!.sql;
