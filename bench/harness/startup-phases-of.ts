/** What bench/harness/startup-probe.cjs writes when the first `GET /readyz` answers 200. */
export interface ProbeReport {
  /** Each phase's end, in milliseconds since the process began; `modules loaded` once per require of the entry. */
  marks: ReadonlyArray<{ name: string; at: number }>;
  /** CPU time (user and system, every thread) the process had used by then. */
  cpuMs: number;
  /** The app modules' start-up steps (`SlotCheckModule.start`), each with its own time. */
  steps: ReadonlyArray<{ name: string; ms: number }>;
  modulesLoaded: number;
  /** Time spent loading modules, each module's own (the ones it loads taken out), by package or server folder. */
  loadSelfMs: Readonly<Record<string, number>>;
}

export interface StartPhases {
  /**
   * Each phase's length, in the order the start goes through them; NaN for one the probe could not see (a server
   * bundled into one file loads no module of its own through Node).
   */
  phases: Record<string, number>;
  /** The first 200 of `/readyz`, since the process began. */
  readyAt: number;
  /**
   * When it listened while starting (a PostgreSQL start applying schema steps or indexing the search words: `/healthz`
   * answers 200 from then, `/readyz` 503), since the process began; undefined for a start that listened once ready.
   */
  listenedWhileStartingAt: number | undefined;
  cpuMs: number;
  steps: Record<string, number>;
  modulesLoaded: number;
  loadSelfMs: Readonly<Record<string, number>>;
}

/** The phases of the start-up between the probe's marks (startup-probe.cjs says where each is taken). */
export const PHASES: ReadonlyArray<[name: string, from: string, to: string]> = [
  ['node boot (to the first line of JavaScript)', 'process began', 'node started'],
  ["loading the server's modules", 'node started', 'modules loaded'],
  ['config, logger, session secret, createApp', 'modules loaded', 'app created'],
  ["the entry's registrations (demo content)", 'app created', 'app configured'],
  ['app.ready(): migrations check, loads, remotes, slot check', 'app configured', 'app ready'],
  ["the entry's seeding (afterReady)", 'app ready', 'entry seeded'],
  ['rule-name and host checks, server made', 'entry seeded', 'listen called'],
  ['listen', 'listen called', 'listening'],
  ['listening to the first request (the poller)', 'listening', 'first request'],
  ['the first request to the first /readyz 200', 'first request', 'first /readyz 200'],
];

/**
 * A start that listened while starting (health/starting-listener.ts) listens inside app.ready(), and its first
 * request is a probe answered 503: the last phases of PHASES would measure across the start (one of them negative).
 * Its end is measured instead from the entry's seeding to the first `/readyz` 200: the checks, the gate opened, and the
 * poller's next ask. NaN for a start that listened once ready, as PHASES's listening phases are NaN for this one.
 */
export const EARLY_LISTENER_PHASES: ReadonlyArray<[name: string, from: string, to: string]> = [
  ['rule-name and host checks, gate opened, to the first /readyz 200', 'entry seeded', 'first /readyz 200'],
];

/** The phases of PHASES from the entry's seeding on, which an early listener's marks do not delimit. */
const LISTENING_PHASES = new Set(PHASES.slice(-4).map(([name]) => name));

export function phasesOf(report: ProbeReport): StartPhases {
  const at = new Map<string, number>([['process began', 0]]);
  for (const { name, at: time } of report.marks) {
    // The main module's last require before the app began is where loading ends.
    if (name === 'modules loaded' && at.has('app created')) continue;
    at.set(name, time);
  }
  const listening = at.get('listening');
  const ready = at.get('app ready');
  const early = listening !== undefined && ready !== undefined && listening < ready;
  const phases: Record<string, number> = {};
  for (const [name, from, to] of PHASES) {
    const start = at.get(from);
    const end = at.get(to);
    phases[name] =
      start === undefined || end === undefined || (early && LISTENING_PHASES.has(name)) ? NaN : end - start;
  }
  for (const [name, from, to] of EARLY_LISTENER_PHASES) {
    const start = at.get(from);
    const end = at.get(to);
    phases[name] = start === undefined || end === undefined || !early ? NaN : end - start;
  }
  const steps: Record<string, number> = {};
  for (const step of report.steps) steps[step.name] = (steps[step.name] ?? 0) + step.ms;
  return {
    phases,
    readyAt: at.get('first /readyz 200')!,
    listenedWhileStartingAt: early ? listening : undefined,
    cpuMs: report.cpuMs,
    steps,
    modulesLoaded: report.modulesLoaded,
    loadSelfMs: report.loadSelfMs,
  };
}
