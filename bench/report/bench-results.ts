import type { Comparison, LoadGeneratorName, LoadPlan } from '../harness/compare-alternating';
import type { PageProtocol } from '../harness/bench-options';
import type { StartupResult } from './startup-result';

/** Where the example run came from: its notes in bench/results/ quote it with the hardware. */
export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  /**
   * One-minute load average at the start and the end of the run: other work on the machine shares its two cores with
   * the servers, the load generator and the browser, and makes the figures noisier.
   */
  loadAverage: { start: number; end: number | null };
}

/** A server route against its bare baseline; higher req/s is better, so the goal is a minimum ratio. */
export interface ThroughputResult {
  name: string;
  target: string;
  baseline: string;
  /** Size of one answer body, the same on both sides. */
  bodyBytes: number;
  minimumRatio: number;
  /** The client that made the load; each throughput benchmark is run with every load generator. */
  generator: LoadGeneratorName;
  comparison: Comparison;
  /**
   * The server processes' CPU time (user + system) per answer, median of the rounds of each side, where a suite
   * reads it (observability): what the target's extra work costs, which the machine's other load moves less than
   * it moves req/s. Also of their main threads alone (JavaScript and the event loop), where the answers are made:
   * the rest is the process's other threads (V8's compilers and collector, a traced server's OTLP export thread).
   */
  serverCpu?: {
    targetMicroseconds: number;
    baselineMicroseconds: number;
    targetMainThreadMicroseconds?: number;
    baselineMainThreadMicroseconds?: number;
  };
}

/** One endpoint at one registry size against a bare route sending the same bytes. */
export interface PayloadSizeResult {
  endpoint: '/slots' | '/meta';
  extraSlots: number;
  bodyBytes: number;
  baseline: string;
  minimumRatio: number;
  comparison: Comparison;
}

/** `registerSlots` at two registry sizes, compared per slot (bench/suites/slot-registration.ts). */
export interface RegistrationResult {
  name: string;
  slots: number;
  baselineSlots: number;
  /** Median milliseconds to register `slots` into a fresh registry. */
  targetMs: number;
  baselineMs: number;
  /** Time per slot at `baselineSlots` / time per slot at `slots`: 1 when the cost per slot does not grow. */
  ratio: number;
  /** Null: a figure to read, without a goal. */
  minimumRatio: number | null;
}

export interface PageLoadSide {
  /** Milliseconds from navigation start until every slot on the page is rendered (median of the loads). */
  medianMs: number;
  /** The spread of those loads: first and third quartiles. */
  p25Ms: number;
  p75Ms: number;
  timesMs: number[];
  requests: number;
  /** Response body bytes as received (compressed where the server compressed). */
  bytes: number;
}

/** The product against the plain Module Federation setup (bench/plain-federation) in the same run. */
export interface PlainFederationComparison {
  side: PageLoadSide;
  /** federated median / plain median; lower is better. */
  ratio: number;
  maximumRatio: number;
}

/** One page in one cache state, federated against the same components bundled into the host; lower is better. */
export interface PageLoadResult {
  name: string;
  path: string;
  signedIn: boolean;
  cache: 'cold' | 'warm';
  /** Slot events as shipped, or switched off in both variants (the sender never starts). */
  slotEvents: 'on' | 'off';
  /** What the pages were loaded over (bench-options.ts); absent in results written before it was measured: http1. */
  protocol?: PageProtocol;
  /** Which of the consecutive runs of the page suite (from 1): a goal is met only when every run meets it. */
  run: number;
  loads: number;
  slotComponents: string[];
  federated: PageLoadSide;
  bundled: PageLoadSide;
  /** federated median / bundled median. */
  ratio: number;
  maximumRatio: number;
  /** Absent in results written before the plain Module Federation side was measured. */
  plain?: PlainFederationComparison;
}

export interface BundleSizeResult {
  name: string;
  files: string[];
  gzipBytes: number;
  /** Null when no budget applies to this part. */
  budgetBytes: number | null;
}

export interface BenchFailure {
  benchmark: string;
  message: string;
}

export interface BenchResults {
  startedAt: string;
  durationSeconds: number;
  /** The options the run was given (`--only=pages --page-loads=20`); absent in results written before it was kept. */
  args?: readonly string[];
  machine: MachineInfo;
  plans: { main: LoadPlan; sizes: LoadPlan };
  throughput: ThroughputResult[];
  payloadSizes: PayloadSizeResult[];
  registration: RegistrationResult[];
  /** Absent in results written before the start-up benchmark existed. */
  startup?: StartupResult[];
  pageLoads: PageLoadResult[];
  bundles: BundleSizeResult[];
  failures: BenchFailure[];
}
