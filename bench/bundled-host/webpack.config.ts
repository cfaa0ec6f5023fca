import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import type { Configuration } from 'webpack';
import { hostConfiguration } from '../../webpack.config';

export interface BundledHostOptions {
  /** The generated entry (bundled-entry.ts). */
  entryFile: string;
  /** Root of the output: the host goes to `<outputDir>/host/`, as the server's distDir layout expects. */
  outputDir: string;
}

/**
 * The host's own production configuration (same loaders, minifier, HTML template, CSS, hashing) with Module
 * Federation taken out and the components bundled in: the baseline of the sign-in page benchmark. Only the entry,
 * the output folder and the plugin list differ from `npm run build`'s host.
 */
export function bundledHostConfiguration(options: BundledHostOptions): Configuration {
  const base = hostConfiguration('production');
  return {
    ...base,
    name: 'bench-bundled-host',
    entry: { main: options.entryFile },
    output: { ...base.output, path: path.join(options.outputDir, 'host'), uniqueName: 'bench_bundled_host' },
    plugins: (base.plugins ?? []).filter((plugin) => !(plugin instanceof ModuleFederationPlugin)),
    // Maps beside the files but not named in them ('hidden'), so the page loads the same bytes as without: the page
    // profiles of `npm run bench -- --cpu-prof` name the bundled page's code by its source, as the federated page's.
    devtool: 'hidden-source-map',
  };
}
