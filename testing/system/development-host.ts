import { symlinkSync } from 'node:fs';
import path from 'node:path';
import webpack from 'webpack';
import { hostConfiguration } from '../../webpack.config';
import { makeTempDir, type TempDir } from '../temp-dir';
import { DIST_DIR } from './repo-root';

/**
 * The host built in development mode (StrictMode, the props schemas checked) into a temporary folder, beside the
 * production remotes of dist/ (linked), for tests of what only a development host does. About a minute on two cores.
 */
export async function buildDevelopmentHost(): Promise<TempDir> {
  const build = makeTempDir('slots-dev-host-');
  const compiler = webpack({ ...hostConfiguration('development', build.path), cache: false });
  await new Promise<void>((resolve, reject) =>
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error || stats?.hasErrors()) reject(error ?? new Error(stats?.toString('errors-only')));
      else resolve();
    }),
  );
  symlinkSync(path.join(DIST_DIR, 'remotes'), path.join(build.path, 'remotes'), 'dir');
  return build;
}
