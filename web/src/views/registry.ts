// The views of the panel's tab bar, in tab order, and the mountain range
// (shown under the timeline, not as a tab).
import { ANIMATION_VIEW } from './animation/animation_view';
import type { ViewFactory } from './context';
import { COUNTERS_VIEW } from './counters/counters_view';
import { CPUS_VIEW } from './cpus/cpus_view';
import { DIAGNOSTICS_VIEW } from './diagnostics/diagnostics_view';
import { HISTOGRAM_VIEW } from './histogram/histogram_view';
import { LAMPORT_VIEW } from './lamport/lamport_view';
import { LOOPS_VIEW } from './loops/loops_view';
import { MATRIX_VIEW } from './matrix/matrix_view';
import { MOUNTAIN_VIEW } from './mountain/mountain_view';
import { PARADIGM_VIEW } from './paradigm/paradigm_view';
import { PROCESSES_VIEW } from './processes/processes_view';
import { QUERY_VIEW } from './query/query_view';
import { SOURCE_VIEW } from './source/source_view';
import { STATS_VIEW } from './stats/stats_view';

export const PANEL_VIEWS: ViewFactory[] = [DIAGNOSTICS_VIEW, STATS_VIEW, PARADIGM_VIEW, HISTOGRAM_VIEW, MATRIX_VIEW, PROCESSES_VIEW, LAMPORT_VIEW, COUNTERS_VIEW, CPUS_VIEW, LOOPS_VIEW, ANIMATION_VIEW, QUERY_VIEW, SOURCE_VIEW];

export { MOUNTAIN_VIEW };
export { mountainView, type MountainOptions } from './mountain/mountain_view';
