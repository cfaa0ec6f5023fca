/**
 * The contract of slot events: what a host page tells the server about each slot load (`POST /api/slot-events`),
 * and the load statistics the server answers with (`GET /api/slot-stats`). Nothing of a slot's props, and no error
 * message (it may quote them), ever goes into an event.
 */

export const SLOT_EVENTS_PATH = '/api/slot-events';
export const SLOT_STATS_PATH = '/api/slot-stats';

/** The most events one request carries; the host sends more in several beacons. */
export const SLOT_EVENTS_MAX_PER_BATCH = 50;
/** The largest body `POST /api/slot-events` reads (a full batch takes about 6 KiB). */
export const SLOT_EVENTS_MAX_BODY_BYTES = 12 * 1024;

/** How a slot load ended: `timed-out` is a failure whose remote did not answer in time. */
export type SlotLoadOutcome = 'rendered' | 'failed' | 'timed-out' | 'hidden';
export const SLOT_LOAD_OUTCOMES: readonly SlotLoadOutcome[] = ['rendered', 'failed', 'timed-out', 'hidden'];

/**
 * Where a failed load stopped: the remote's manifest or entry script (the remote as a whole), the share scope's
 * init, the component module's factory, or the component's render; `load`: a manifest, entry or chunk that timed out
 * or whose request failed on the network (slowness and outages are not the code's failures).
 */
export type SlotLoadPhase = 'manifest' | 'entry' | 'init' | 'factory' | 'render' | 'load';
export const SLOT_LOAD_PHASES: readonly SlotLoadPhase[] = ['manifest', 'entry', 'init', 'factory', 'render', 'load'];

/** The phases of a release's files not arriving (its origin down, slow, or the network), not of its code. */
export const SLOT_LOAD_DELIVERY_PHASES: readonly SlotLoadPhase[] = ['manifest', 'entry', 'load'];

/** One slot load, as the host sends it. */
export interface SlotLoadEvent {
  location: string;
  component: string;
  remote: string;
  outcome: SlotLoadOutcome;
  /** Set for `failed` and `timed-out`. */
  phase: SlotLoadPhase | null;
  /** The slot status's failure kind (e.g. `remote-unavailable`, `render-error`); null unless it failed. */
  kind: string | null;
  /** From the slot starting to load to its outcome. */
  loadMs: number;
  /** From the navigation's start to the slot starting to load. */
  startMs: number;
  /**
   * Set on a failure of a slot that had rendered (a later render or an effect threw): the server counts it in place
   * of the render it counted for that load, so a slot that breaks once on screen is a failed load, not a rendered one.
   */
  afterRender?: true;
  /**
   * The release the page loaded the remote from, as the server signed it in the page's remotes (`releaseTag` of
   * RemoteDescriptor): a tab opened before a rollback goes on reporting under the release it runs. The server counts
   * the event under it only when the signature is its own; otherwise under the release it serves the visitor now.
   */
  releaseTag?: string;
}

/**
 * The body of `POST /api/slot-events`. The server tags each event with the tenant and release itself (a release only
 * from a `releaseTag` it signed).
 */
export interface SlotEventsBatch {
  events: SlotLoadEvent[];
}

/** The load statistics windows, with their length in milliseconds. */
export const SLOT_STATS_WINDOWS = { '5m': 5 * 60_000, '1h': 60 * 60_000, '1d': 24 * 60 * 60_000 } as const;
export type SlotStatsWindow = keyof typeof SLOT_STATS_WINDOWS;

/** The loads of one remote release at one location and component over one window. */
export interface SlotLoadStats {
  remote: string;
  /** The release version the server served; '' for a remote served as configured (no release in force). */
  release: string;
  location: string;
  component: string;
  /** Loads that settled (every outcome). */
  loads: number;
  rendered: number;
  failed: number;
  timedOut: number;
  hidden: number;
  /** failed + timedOut over the loads that were not hidden; null with none. */
  failureRate: number | null;
  /** Milliseconds (from a histogram: the upper edge of the bucket it falls in); null with no timed load. */
  p50Ms: number | null;
  p95Ms: number | null;
  /** Failures per phase. */
  phases: Record<SlotLoadPhase, number>;
  /**
   * Distinct visitors (accounts; for anonymous figures, client addresses) who loaded it in the window, and of them
   * those who saw at least one failure: what a canary is judged on. Each visitor counts once however many events it
   * sent (bounded: at most 1,000 new visitors per slot and minute per host are recorded).
   */
  visitors: number;
  failedVisitors: number;
}

/** `GET /api/slot-stats?window=5m|1h|1d` (default 1h): every key with loads in the window. */
export interface SlotStatsPayload {
  window: SlotStatsWindow;
  /** Per remote release, location and component. */
  stats: SlotLoadStats[];
  /** Per remote release, every location and component together (`location` and `component` are ''). */
  releases: SlotLoadStats[];
  /** Remote -> the release the asking session is served now ('' as configured): the inspector's "current". */
  served: Record<string, string>;
  /**
   * The loads of visitors not signed in, apart (`stats` and `releases` are the signed-in staff's only): anyone can send
   * these, so they are never a release's health figures nor part of a canary's verdict.
   */
  anonymous: { stats: SlotLoadStats[]; releases: SlotLoadStats[] };
}
