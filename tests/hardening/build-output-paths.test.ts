/**
 * No emitted file of the production build (`npm run build`, which `npm test` runs before these suites) names the
 * folder it was built in: source maps carry generated modules that import by absolute path, and would tell anyone
 * who reads them where, and under which account, the product was built.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../testing/system/repo-root';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

describe('the production build output', () => {
  it('holds no absolute path of the build folder, in any file, source maps included', () => {
    const files = filesUnder(path.join(REPO_ROOT, 'dist'));
    expect(files.some((file) => file.endsWith('.map'))).toBe(true);
    const leaking = files.filter((file) => readFileSync(file, 'utf8').includes(REPO_ROOT));
    expect(leaking.map((file) => path.relative(REPO_ROOT, file))).toEqual([]);
  });
});
