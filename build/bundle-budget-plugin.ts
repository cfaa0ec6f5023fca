import { gzipSync } from 'node:zlib';
import type { Chunk, ChunkGroup, Compilation, Compiler } from 'webpack';
import { DEV_ONLY_CHUNK_PREFIX, TOOL_PAGE_CHUNK_PREFIX, type BundleBudget } from './bundle-budgets';

/** One measured part of a build. */
export interface BudgetMeasurement {
  label: string;
  /** Emitted JavaScript files counted, in a stable order. */
  files: string[];
  gzipBytes: number;
  maxGzipBytes: number;
}

const measurementsByCompilation = new WeakMap<Compilation, BudgetMeasurement[]>();

/** What the plugin measured in a finished compilation (empty when it did not run there). */
export function budgetMeasurementsOf(compilation: Compilation): BudgetMeasurement[] {
  return measurementsByCompilation.get(compilation) ?? [];
}

/**
 * Fails the build (a compilation error, so webpack exits non-zero and, in production, emits nothing) when a part
 * of it is larger, gzipped, than its budget. Runs after minification and content hashing, on the final files.
 */
export class BundleBudgetPlugin {
  constructor(private readonly budgets: readonly BundleBudget[]) {}

  apply(compiler: Compiler): void {
    const { webpack } = compiler;
    compiler.hooks.thisCompilation.tap(BundleBudgetPlugin.name, (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: BundleBudgetPlugin.name, stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ANALYSE },
        () => {
          const measurements = this.budgets.flatMap((budget) => measure(compilation, budget));
          measurementsByCompilation.set(compilation, measurements);
          for (const measurement of measurements) {
            if (measurement.gzipBytes > measurement.maxGzipBytes) {
              compilation.errors.push(new webpack.WebpackError(overBudgetMessage(measurement)));
            }
          }
        },
      );
    });
  }
}

export function overBudgetMessage(measurement: BudgetMeasurement): string {
  return (
    `Bundle budget exceeded: ${measurement.label} is ${kb(measurement.gzipBytes)} gzip, over its budget of ` +
    `${kb(measurement.maxGzipBytes)} (files: ${measurement.files.join(', ')}). Make it smaller or split it; raise ` +
    'the budget in build/bundle-budgets.ts only with the reason written beside it.'
  );
}

function measure(compilation: Compilation, budget: BundleBudget): BudgetMeasurement[] {
  const { target } = budget;
  switch (target.kind) {
    case 'entrypoint': {
      const entrypoint = compilation.entrypoints.get(target.name);
      if (!entrypoint) return [missing(compilation, budget, `entrypoint "${target.name}"`)];
      const groups = target.includeAsync ? withDescendants(entrypoint) : [entrypoint];
      return [measurementOf(compilation, budget.label, budget.maxGzipBytes, filesOf(groups))];
    }
    case 'asset': {
      if (!compilation.getAsset(target.file)) return [missing(compilation, budget, `file "${target.file}"`)];
      return [measurementOf(compilation, budget.label, budget.maxGzipBytes, [target.file])];
    }
    case 'chunk-groups': {
      const groups = compilation.chunkGroups.filter((group) => group.name?.startsWith(target.prefix));
      return groups
        .map((group) =>
          measurementOf(
            compilation,
            `${budget.label} ${(group.name ?? '').slice(target.prefix.length)}`,
            budget.maxGzipBytes,
            filesOf([group]),
          ),
        )
        .sort((a, b) => a.label.localeCompare(b.label));
    }
  }
}

// A budget that finds nothing to measure is a configuration error: it would otherwise pass silently forever.
function missing(compilation: Compilation, budget: BundleBudget, what: string): BudgetMeasurement {
  compilation.errors.push(
    new compilation.compiler.webpack.WebpackError(`Bundle budget "${budget.label}": this build has no ${what}.`),
  );
  return { label: budget.label, files: [], gzipBytes: 0, maxGzipBytes: budget.maxGzipBytes };
}

function withDescendants(root: ChunkGroup): ChunkGroup[] {
  const seen = new Set<ChunkGroup>([root]);
  const queue: ChunkGroup[] = [root];
  for (let group = queue.shift(); group !== undefined; group = queue.shift()) {
    for (const child of group.childrenIterable) {
      // Loaded by development pages only, or by a tool page when opened: measured by their own budgets, not as part
      // of every page.
      if (child.name?.startsWith(DEV_ONLY_CHUNK_PREFIX) || child.name?.startsWith(TOOL_PAGE_CHUNK_PREFIX)) continue;
      if (!seen.has(child)) {
        seen.add(child);
        queue.push(child);
      }
    }
  }
  return [...seen];
}

function filesOf(groups: readonly ChunkGroup[]): string[] {
  const files = new Set<string>();
  for (const group of groups) {
    for (const chunk of group.chunks as Chunk[]) {
      for (const file of chunk.files) if (file.endsWith('.js')) files.add(file);
    }
  }
  return [...files].sort();
}

function measurementOf(
  compilation: Compilation,
  label: string,
  maxGzipBytes: number,
  files: string[],
): BudgetMeasurement {
  let gzipBytes = 0;
  for (const file of files) {
    const asset = compilation.getAsset(file);
    if (asset) gzipBytes += gzipSync(asset.source.buffer(), { level: 9 }).length;
  }
  return { label, files, gzipBytes, maxGzipBytes };
}

function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} KB`;
}
