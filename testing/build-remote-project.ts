import path from 'node:path';
import webpack, { type Stats } from 'webpack';
import { remoteWebpackConfig } from '../remotes/kit/webpack';
import type { RemoteDescriptorFile } from '../shared';

/** This repository's packages, for a project folder made by a test, which has no node_modules of its own. */
const NODE_MODULES = path.resolve(__dirname, '..', 'node_modules');

/**
 * The kit's production build of the project folder `dir` (`npm run build`) into its dist/: webpack's stats, its
 * errors included, for the test to read or refuse.
 */
export function buildRemoteProject(dir: string, remote: RemoteDescriptorFile): Promise<Stats> {
  const config = remoteWebpackConfig({
    remote,
    dir,
    mode: 'production',
    outputPath: path.join(dir, 'dist'),
    extraModuleFolders: [NODE_MODULES],
  });
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error || !stats) reject(error ?? new Error('webpack gave no stats'));
      else resolve(stats);
    });
  });
}
