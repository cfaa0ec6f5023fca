import { renderStartup } from './render-startup';

describe('renderStartup', () => {
  it('prints the first answer and the first 200 of /readyz as two figures, the goal checked on the second', () => {
    const lines = renderStartup([
      {
        name: 'compiled (node dist/server/main.js)',
        starts: 5,
        answeredMs: 300,
        readyMs: 1_200,
        readyMsMax: 1_400,
        idleRssMiB: 90,
        goals: { readyMs: 1_000, idleRssMiB: 100 },
      },
    ]);
    expect(lines.join('\n')).toContain('to the first 200 of `/readyz`');
    expect(lines).toContain('| Server | Starts | Answers | Ready | Slowest | Idle RSS | Goal | |');
    expect(lines).toContain(
      '| compiled (node dist/server/main.js) | 5 | 300 ms | 1200 ms | 1400 ms | 90 MiB | < 1000 ms, < 100 MiB | **missed** |',
    );
  });
});
