import { fileTimings, folderTimings, report, runFromPerfCache, type JestJson } from './test-timings';

const run: JestJson = {
  startTime: 1_000,
  testResults: [
    { name: '/repo/server/slots/a.test.ts', startTime: 1_000, endTime: 3_000, status: 'passed' },
    { name: '/repo/host/pages/b.test.tsx', startTime: 1_000, endTime: 8_000, status: 'failed' },
    { name: '/repo/server/slots/c.test.ts', startTime: 3_000, endTime: 4_500, status: 'passed' },
  ],
};

it('lists the files slowest first and sums them per folder', () => {
  expect(fileTimings(run, '/repo').map((file) => [file.file, file.seconds])).toEqual([
    ['host/pages/b.test.tsx', 7],
    ['server/slots/a.test.ts', 2],
    ['server/slots/c.test.ts', 1.5],
  ]);
  expect(folderTimings(fileTimings(run, '/repo'))).toEqual([
    { folder: 'host/pages', seconds: 7, files: 1 },
    { folder: 'server/slots', seconds: 3.5, files: 2 },
  ]);
  const text = report(run, '/repo');
  expect(text).toContain('3 files in 7 s; their durations add up to 11 s');
  expect(text).toContain('     7.0 s  host/pages/b.test.tsx (failed)');
});

it("reads Jest's own record of a project's last run, which has no run time", () => {
  const cached = runFromPerfCache({ '/repo/tests/a.test.ts': [1, 2_500], '/repo/tests/b.test.ts': [0, 500] });
  expect(fileTimings(cached, '/repo')).toEqual([
    { file: 'tests/a.test.ts', seconds: 2.5, status: 'passed' },
    { file: 'tests/b.test.ts', seconds: 0.5, status: 'failed' },
  ]);
  expect(report(cached, '/repo')).toContain('2 files; their durations add up to 3 s');
});
