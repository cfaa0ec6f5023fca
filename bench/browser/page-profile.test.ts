import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  mainThreadTimeByPackage,
  OUTSIDE_SCRIPTS,
  packageOfSource,
  sourceMapResolver,
  type PageCpuProfile,
} from './page-profile';

describe('packageOfSource', () => {
  it.each([
    ['webpack://host/node_modules/react-dom/cjs/react-dom-client.production.js', '.', 'react-dom'],
    [
      'webpack://host/./node_modules/@module-federation/runtime-core/dist/core.js',
      '.',
      '@module-federation/runtime-core',
    ],
    ['webpack://host/host/core/slot-item.tsx', '.', 'host/core'],
    ['webpack://host/host/index.ts', '.', 'host'],
    ['webpack://host/webpack/runtime/jsonp chunk loading', '.', 'webpack runtime'],
    ['webpack://team_marketing/webpack/bootstrap', 'remotes/marketing', 'webpack runtime'],
    ['webpack://team_marketing/components/Callout.tsx', 'remotes/marketing', 'remotes/marketing'],
    ['webpack://team_marketing/../common/safe-href.ts', 'remotes/marketing', 'remotes/common'],
    ['webpack://team_records/../../node_modules/react/jsx-runtime.js', 'remotes/records', 'react'],
    ['webpack://bench_bundled_host/remotes/marketing/components/Callout.tsx', '.', 'remotes/marketing'],
  ])('names %s (built in %s) %s', (source, folder, name) => {
    expect(packageOfSource(source, folder)).toBe(name);
  });
});

describe('sourceMapResolver', () => {
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'page-profile-'));
    const write = (file: string, sources: string[]) => {
      mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
      writeFileSync(path.join(dist, file), 'x'.repeat(20));
      // One generated line: columns 0-9 from the first source, 10 on from the second ("UCAA": column +10, source +1).
      writeFileSync(
        path.join(dist, `${file}.map`),
        JSON.stringify({ version: 3, sources, names: [], mappings: 'AAAA,UCAA' }),
      );
    };
    write('host/assets/main.1234567890.js', [
      'webpack://host/node_modules/react-dom/index.js',
      'webpack://host/host/loader/slot-source.ts',
    ]);
    write('remotes/team_marketing/components.1234567890.js', [
      'webpack://team_marketing/components/Callout.tsx',
      'webpack://team_marketing/../common/safe-href.ts',
    ]);
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it("names a frame by its source's package or folder, the remotes' code by their folder in the repository", () => {
    const resolve = sourceMapResolver(dist, { team_marketing: 'remotes/marketing' });
    expect(resolve('http://127.0.0.1:1/assets/main.1234567890.js', 0, 3)).toBe('react-dom');
    expect(resolve('http://127.0.0.1:1/assets/main.1234567890.js', 0, 12)).toBe('host/loader');
    expect(resolve('http://127.0.0.1:1/remotes/team_marketing/components.1234567890.js', 0, 0)).toBe(
      'remotes/marketing',
    );
    expect(resolve('http://127.0.0.1:1/remotes/team_marketing/components.1234567890.js', 0, 15)).toBe('remotes/common');
  });

  it('names a script it has no map of, or code its map does not cover, by its path without the content hash', () => {
    const resolve = sourceMapResolver(dist, {});
    expect(resolve('http://127.0.0.1:1/assets/other.0123456789.js', 0, 0)).toBe('/assets/other.js (no source map)');
    expect(resolve('http://127.0.0.1:1/assets/main.1234567890.js', 3, 0)).toBe(
      '/assets/main.js (code the map does not cover)',
    );
  });
});

describe('mainThreadTimeByPackage', () => {
  const frame = (functionName: string, url = '', lineNumber = 0, columnNumber = 0) => ({
    functionName,
    url,
    lineNumber,
    columnNumber,
  });
  // Nodes: 1 (root), 2 (program), 3 (idle), 4 (garbage collector), 5 a DOM call, 6 and 7 the page's scripts.
  const nodes: PageCpuProfile['nodes'] = [
    { id: 1, callFrame: frame('(root)') },
    { id: 2, callFrame: frame('(program)') },
    { id: 3, callFrame: frame('(idle)') },
    { id: 4, callFrame: frame('(garbage collector)') },
    { id: 5, callFrame: frame('appendChild') },
    { id: 6, callFrame: frame('render', 'http://127.0.0.1:1/assets/main.js', 0, 1) },
    { id: 7, callFrame: frame('init', 'http://127.0.0.1:1/assets/main.js', 0, 50) },
  ];
  const resolve = (_url: string, _line: number, column: number) => (column < 10 ? 'react-dom' : 'host/core');

  it('counts each sample for the time until the next one, by package, per load; idle time is left out', () => {
    // Sample i lasts timeDeltas[i + 1] microseconds.
    const first: PageCpuProfile = {
      nodes,
      samples: [3, 6, 6, 7, 2, 5, 4, 3],
      timeDeltas: [0, 1000, 2000, 3000, 4000, 500, 1500, 9000],
    };
    const second: PageCpuProfile = { nodes, samples: [6, 7, 3], timeDeltas: [0, 4000, 2000] };
    const byPackage = mainThreadTimeByPackage([first, second], resolve);
    expect(Object.fromEntries(byPackage)).toEqual({
      // (2 + 3 ms) in the first load, 4 ms in the second, averaged over the two loads.
      'react-dom': 4.5,
      'host/core': (4 + 2) / 2,
      "(program): the browser's own work on the page's thread": 0.5 / 2,
      [OUTSIDE_SCRIPTS]: 1.5 / 2,
      '(garbage collector)': 9 / 2,
    });
  });
});
