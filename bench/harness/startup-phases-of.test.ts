import { EARLY_LISTENER_PHASES, PHASES, phasesOf, type ProbeReport } from './startup-phases-of';

function report(marks: Array<[string, number]>): ProbeReport {
  return {
    marks: marks.map(([name, at]) => ({ name, at })),
    cpuMs: 900,
    steps: [
      { name: 'SlotCheckModule.start', ms: 120 },
      { name: 'ResourcesModule.load', ms: 4 },
      { name: 'ResourcesModule.load', ms: 1 },
    ],
    modulesLoaded: 1000,
    loadSelfMs: { kysely: 150 },
  };
}

const EVERY_MARK: Array<[string, number]> = [
  ['node started', 40],
  ['modules loaded', 300],
  ['modules loaded', 500],
  ['app created', 560],
  ['app configured', 570],
  ['app ready', 720],
  ['entry seeded', 730],
  ['listen called', 735],
  ['listening', 737],
  ['first request', 750],
  ['first /readyz 200', 755],
];

describe('phasesOf', () => {
  it('measures each phase between its marks, loading up to the last require of the entry', () => {
    const { phases, readyAt, steps, cpuMs } = phasesOf(report(EVERY_MARK));
    expect(Object.keys(phases)).toEqual([...PHASES, ...EARLY_LISTENER_PHASES].map(([name]) => name));
    expect(Object.values(phases)).toEqual([40, 460, 60, 10, 150, 10, 5, 2, 13, 5, NaN]);
    expect(readyAt).toBe(755);
    expect(cpuMs).toBe(900);
    expect(steps).toEqual({ 'SlotCheckModule.start': 120, 'ResourcesModule.load': 5 });
  });

  it('leaves out a require made once the app began', () => {
    const marks = [...EVERY_MARK];
    marks.splice(4, 0, ['modules loaded', 565]);
    expect(phasesOf(report(marks)).phases["loading the server's modules"]).toBe(460);
  });

  it('gives NaN for a phase the probe could not see (a server bundled into one file)', () => {
    const marks = EVERY_MARK.filter(([name]) => !name.startsWith('app') && name !== 'entry seeded');
    const { phases } = phasesOf(report(marks));
    expect(phases['app.ready(): migrations check, loads, remotes, slot check']).toBeNaN();
    expect(phases.listen).toBe(2);
  });
});

describe('phasesOf, for a start that listened while starting (PostgreSQL applying schema steps)', () => {
  // Listened inside app.ready(), the poller's first requests answered 503 until the gate opened.
  const EARLY: Array<[string, number]> = [
    ['node started', 40],
    ['modules loaded', 500],
    ['app created', 560],
    ['app configured', 570],
    ['listen called', 600],
    ['listening', 602],
    ['first request', 605],
    ['app ready', 1720],
    ['entry seeded', 1730],
    ['first /readyz 200', 1741],
  ];

  it('measures its end from the seeding to the first /readyz 200, and says when it listened', () => {
    const { phases, listenedWhileStartingAt, readyAt } = phasesOf(report(EARLY));
    expect(phases['app.ready(): migrations check, loads, remotes, slot check']).toBe(1150);
    expect(phases['rule-name and host checks, gate opened, to the first /readyz 200']).toBe(11);
    expect(listenedWhileStartingAt).toBe(602);
    expect(readyAt).toBe(1741);
  });

  it('leaves out the listening phases, which its marks do not delimit (one came out negative)', () => {
    const { phases } = phasesOf(report(EARLY));
    for (const [name] of PHASES.slice(-4)) expect(phases[name]).toBeNaN();
    expect(Object.values(phases).filter((ms) => ms < 0)).toEqual([]);
  });

  it('gives NaN for its own phase, and no early listening, for a start that listened once ready', () => {
    const { phases, listenedWhileStartingAt } = phasesOf(report(EVERY_MARK));
    expect(phases['rule-name and host checks, gate opened, to the first /readyz 200']).toBeNaN();
    expect(listenedWhileStartingAt).toBeUndefined();
  });
});
