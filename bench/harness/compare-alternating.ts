import { median } from './median';
import { runLoad, type LoadRunOptions, type LoadSample, type LoadTarget } from './load-run';
import { runWrk } from './wrk-run';

export interface LoadPlan {
  warmupSeconds: number;
  roundSeconds: number;
  rounds: number;
  connections: number;
}

/** Medians over the measured rounds of one side. */
export interface SideFigures {
  requestsPerSecond: number;
  bytesPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  rounds: LoadSample[];
}

export interface Comparison {
  target: SideFigures;
  baseline: SideFigures;
  /** target req/s divided by baseline req/s (medians). */
  ratio: number;
}

const SETTLE_MS = 250;

/** A load generator: one timed run against one target. */
export type LoadRunner = (target: LoadTarget, options: LoadRunOptions) => Promise<LoadSample>;

/**
 * The two clients every throughput figure is measured with: the figures depend on the client (how fast it parses
 * answers, how it keeps connections), so a ratio is quoted for both.
 */
export const LOAD_GENERATORS = { autocannon: runLoad, wrk: runWrk } as const satisfies Record<string, LoadRunner>;
export type LoadGeneratorName = keyof typeof LOAD_GENERATORS;

/**
 * Warms both sides up, then measures them in alternation (target first in even rounds, baseline first in odd ones)
 * so that drift on the machine (thermal, other processes, GC of the load generator) falls on both sides alike.
 */
export async function compareAlternating(
  target: LoadTarget,
  baseline: LoadTarget,
  plan: LoadPlan,
  runner: LoadRunner = runLoad,
): Promise<Comparison> {
  const warmup = { seconds: plan.warmupSeconds, connections: plan.connections };
  const round = { seconds: plan.roundSeconds, connections: plan.connections };
  await runner(target, warmup);
  await settle();
  await runner(baseline, warmup);
  await settle();

  const targetRounds: LoadSample[] = [];
  const baselineRounds: LoadSample[] = [];
  for (let index = 0; index < plan.rounds; index += 1) {
    const order: Array<[LoadTarget, LoadSample[]]> =
      index % 2 === 0
        ? [
            [target, targetRounds],
            [baseline, baselineRounds],
          ]
        : [
            [baseline, baselineRounds],
            [target, targetRounds],
          ];
    for (const [side, samples] of order) {
      samples.push(await runner(side, round));
      await settle();
    }
  }
  const targetFigures = summarise(targetRounds);
  const baselineFigures = summarise(baselineRounds);
  return {
    target: targetFigures,
    baseline: baselineFigures,
    ratio: targetFigures.requestsPerSecond / baselineFigures.requestsPerSecond,
  };
}

export function summarise(rounds: LoadSample[]): SideFigures {
  return {
    requestsPerSecond: median(rounds.map((sample) => sample.requestsPerSecond)),
    bytesPerSecond: median(rounds.map((sample) => sample.bytesPerSecond)),
    latencyP50: median(rounds.map((sample) => sample.latencyP50)),
    latencyP99: median(rounds.map((sample) => sample.latencyP99)),
    rounds,
  };
}

// Lets the sockets of the previous run close before the next one opens its connections.
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}
