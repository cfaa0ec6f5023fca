import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * host/index.ts runs the start-up code before its async boundary (`import('./bootstrap')`): whatever that code
 * imports is in the page's first script, ahead of React. So the rule is one of folders: host/startup/ and
 * host/loader/ import no React and nothing of the React side of the host, and the loader does not import the
 * start-up code it serves.
 */
const HOST_DIR = __dirname;
const REACT_SIDE = ['core', 'app', 'pages', 'layout', 'forms', 'bootstrap'];

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(HOST_DIR, folder))
    .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
    .map((name) => path.join(HOST_DIR, folder, name));
}

/** Every module a file imports: static, type-only, side-effect and dynamic imports alike. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'([^']+)'/g)].map((match) => match[1] ?? '');
}

/** What a file may not import: React itself, the React side of the host, and `extra` folders of the host. */
function forbiddenImports(folder: string, extra: readonly string[] = []): string[] {
  const problems: string[] = [];
  for (const file of sourceFiles(folder)) {
    for (const specifier of importsOf(file)) {
      const relative = specifier.startsWith('.')
        ? path.relative(HOST_DIR, path.resolve(path.dirname(file), specifier))
        : null;
      const topFolder = relative?.split(path.sep)[0] ?? '';
      const forbidden =
        /^react(-dom)?(\/|$)/.test(specifier) ||
        specifier.startsWith('react-router') ||
        (relative !== null && [...REACT_SIDE, ...extra].includes(topFolder));
      if (forbidden) problems.push(`${path.relative(HOST_DIR, file)} imports ${specifier}`);
    }
  }
  return problems;
}

describe('no React before the async boundary', () => {
  it('host/startup/ imports neither React nor the React side of the host', () => {
    expect(sourceFiles('startup').length).toBeGreaterThan(0);
    expect(forbiddenImports('startup')).toEqual([]);
  });

  it('host/loader/ imports neither React, nor the React side of the host, nor the start-up code', () => {
    expect(sourceFiles('loader').length).toBeGreaterThan(0);
    expect(forbiddenImports('loader', ['startup'])).toEqual([]);
  });

  it('holds no .tsx file in either folder', () => {
    const tsx = [...sourceFiles('startup'), ...sourceFiles('loader')].filter((file) => file.endsWith('.tsx'));
    expect(tsx).toEqual([]);
  });

  it('sees the imports it checks: the same check flags the React side of the host', () => {
    expect(importsOf(path.join(HOST_DIR, 'startup', 'start-host.ts'))).toEqual(
      expect.arrayContaining(['@module-federation/enhanced/runtime', '../loader/api-client']),
    );
    expect(forbiddenImports('core')).toEqual(
      expect.arrayContaining(['core/slot-item.tsx imports react', 'core/slot-item.tsx imports ./slot-boundary']),
    );
  });
});
