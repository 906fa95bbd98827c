// What a TimelineView is made with (the API, the trace's summary, the state
// style, the callbacks the shell listens on) and the status it reports.
import type { TimeWindow } from '../../base/time_scale';
import type { Details, TraceSummary } from '../../protocol/api.gen';
import type { ApiClient, ReplayCursor, StateStyle } from '../context';
import type { SelectedSlice } from './selection';

export interface TimelineOptions {
  api: ApiClient;
  summary: TraceSummary;
  style: StateStyle;
  /** Details of the clicked or selected thing; null clears the panel. */
  onDetails?: (d: Details | null, loading: boolean) => void;
  /** Pointer time (null: outside the plot), window, measured range. */
  onStatus?: (s: TimelineStatus) => void;
  /** The first tile was drawn. */
  onFirstDraw?: () => void;
  /** For failures that are not API errors (decoding, drawing). */
  onError?: (e: unknown) => void;
  /** The replay cursor: drawn as a line and kept in view; a click on the ruler moves it. */
  replay?: ReplayCursor;
}

export interface TimelineStatus {
  pointer: number | null;
  window: TimeWindow;
  range: { from: number; to: number } | null;
  selected: SelectedSlice | null;
  loading: boolean;
}
