import { withoutRoot } from './build-path-plugin';

describe('withoutRoot', () => {
  it('makes paths under the build root relative, and the root itself "."', () => {
    const root = '/home/alice/work/slots';
    expect(withoutRoot(`import x from '${root}/node_modules/pkg/index.js';`, root)).toBe(
      "import x from 'node_modules/pkg/index.js';",
    );
    expect(withoutRoot(`cwd: ${root}`, root)).toBe('cwd: .');
    expect(withoutRoot('/home/alice/other/file.ts', root)).toBe('/home/alice/other/file.ts');
  });
});
