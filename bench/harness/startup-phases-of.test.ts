import { PHASES, phasesOf, type ProbeReport } from './startup-phases-of';

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
    expect(Object.keys(phases)).toEqual(PHASES.map(([name]) => name));
    expect(Object.values(phases)).toEqual([40, 460, 60, 10, 150, 10, 5, 2, 13, 5]);
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
