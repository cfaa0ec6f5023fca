import webpack, { type Configuration, type Stats } from 'webpack';

/** Runs webpack on several configurations at once; resolves with each one's stats, errors included. */
export function runWebpack(configs: Configuration[]): Promise<Stats[]> {
  return new Promise((resolve, reject) => {
    const compiler = webpack(configs);
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error || !stats) reject(error ?? new Error('webpack returned no stats'));
      else resolve(stats.stats);
    });
  });
}

/** The error messages of failed compilations, each prefixed with its configuration name. */
export function compilationErrors(stats: readonly Stats[]): string[] {
  return stats.flatMap((child) =>
    child.hasErrors() ? child.compilation.errors.map((error) => `[${child.compilation.name}] ${error.message}`) : [],
  );
}
