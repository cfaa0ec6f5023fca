import { gzipSync } from 'node:zlib';
import type { Chunk, ChunkGroup, Compilation, Compiler, Module } from 'webpack';
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

/** What a team does about a part over its budget, said after each message; a remote's build gives its own. */
export const HOST_BUDGET_ADVICE =
  'Make it smaller or split it; raise the budget in build/bundle-budgets.ts only with the reason written beside it.';

export interface BundleBudgetOptions {
  /** The advice that ends every over-budget message; {@link HOST_BUDGET_ADVICE} by default. */
  advice?: string;
}

/** A module of a chunk with its size (webpack's: the source after loaders, before minification and gzip). */
export interface ModuleSize {
  name: string;
  bytes: number;
}

/** How many of a chunk's modules an over-budget message names, largest first. */
export const LARGEST_MODULES_SHOWN = 5;

/** A measurement with what the messages need: its budget and, for a chunk group, the group's own name. */
interface Measured {
  measurement: BudgetMeasurement;
  budget: BundleBudget;
  part?: string;
}

/** The gzip size of each emitted file, computed once per compilation however many parts count it. */
type GzipSizes = (file: string) => number;

/**
 * Fails the build (a compilation error, so webpack exits non-zero and, in production, emits nothing) when a part
 * of it is larger, gzipped, than its budget. Runs after minification and content hashing, on the final files.
 * A file that several parts of one budget count (a remote's components chunk, counted by every exposed component)
 * and that is over the budget by itself is reported once, with the parts that load it, not once per part; parts
 * over their budget with the same files are reported together too. Each message names the largest modules.
 */
export class BundleBudgetPlugin {
  private readonly advice: string;

  constructor(
    private readonly budgets: readonly BundleBudget[],
    options: BundleBudgetOptions = {},
  ) {
    this.advice = options.advice ?? HOST_BUDGET_ADVICE;
  }

  apply(compiler: Compiler): void {
    const { webpack } = compiler;
    compiler.hooks.thisCompilation.tap(BundleBudgetPlugin.name, (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: BundleBudgetPlugin.name, stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ANALYSE },
        () => {
          const gzipSizes = gzipSizesOf(compilation);
          const measured = this.budgets.flatMap((budget) => measure(compilation, budget, gzipSizes));
          measurementsByCompilation.set(
            compilation,
            measured.map(({ measurement }) => measurement),
          );
          for (const message of overBudgetMessages(compilation, measured, gzipSizes, this.advice)) {
            compilation.errors.push(new webpack.WebpackError(message));
          }
        },
      );
    });
  }
}

export interface OverBudgetDetails {
  /** The other parts of the same budget over it with exactly the same files (their own names). */
  sameFiles?: readonly string[];
  /** The gzip size of each file, shown beside its name. */
  fileGzipBytes?: Readonly<Record<string, number>>;
  largestModules?: readonly ModuleSize[];
  advice?: string;
}

export function overBudgetMessage(measurement: BudgetMeasurement, details: OverBudgetDetails = {}): string {
  const { sameFiles = [], fileGzipBytes = {}, largestModules = [], advice = HOST_BUDGET_ADVICE } = details;
  const one = sameFiles.length === 1;
  const others =
    sameFiles.length === 0
      ? ''
      : `, and so ${one ? 'is' : 'are'} ${listed(sameFiles)}, which ${one ? 'loads' : 'load'} the same files`;
  const files = measurement.files.map((file) => sized(file, fileGzipBytes[file])).join(', ');
  return (
    `Bundle budget exceeded: ${measurement.label} is ${kb(measurement.gzipBytes)} gzip, over its budget of ` +
    `${kb(measurement.maxGzipBytes)}${others} (files: ${files}).${modulesSentence(largestModules)} ${advice}`
  );
}

export interface SharedFileOverBudget {
  file: string;
  gzipBytes: number;
  /** The budget's label, e.g. `team_billing exposed component`. */
  label: string;
  maxGzipBytes: number;
  /** The parts of the budget that load the file (the chunk groups' own names, e.g. the components), two or more. */
  parts: readonly string[];
  largestModules: readonly ModuleSize[];
}

/** One file counted by several parts of a budget and over it by itself: one message for all of them. */
export function sharedFileOverBudgetMessage(shared: SharedFileOverBudget, advice = HOST_BUDGET_ADVICE): string {
  const [first, ...others] = shared.parts;
  const one = others.length === 1;
  return (
    `Bundle budget exceeded: ${shared.file} alone is ${kb(shared.gzipBytes)} gzip, over the ` +
    `${kb(shared.maxGzipBytes)} budget of ${shared.label} ${first ?? ''} and of the ${others.length} ` +
    `${one ? 'other that loads' : 'others that load'} it (${others.join(', ')}): one message for all ` +
    `${shared.parts.length}.${modulesSentence(shared.largestModules, ' in it')} ${advice}`
  );
}

function overBudgetMessages(
  compilation: Compilation,
  measured: readonly Measured[],
  gzipSizes: GzipSizes,
  advice: string,
): string[] {
  const messages: string[] = [];
  const over = measured.filter(({ measurement }) => measurement.gzipBytes > measurement.maxGzipBytes);
  for (const budget of new Set(over.map((item) => item.budget))) {
    const parts = over.filter((item) => item.budget === budget);
    const loadedBy = new Map<string, Measured[]>();
    for (const part of parts) {
      for (const file of part.measurement.files) loadedBy.set(file, [...(loadedBy.get(file) ?? []), part]);
    }
    const shared = new Set<string>();
    for (const [file, loaders] of loadedBy) {
      if (loaders.length < 2 || gzipSizes(file) <= budget.maxGzipBytes) continue;
      shared.add(file);
      const shown = {
        file,
        gzipBytes: gzipSizes(file),
        label: budget.label,
        maxGzipBytes: budget.maxGzipBytes,
        parts: loaders.map(partName),
        largestModules: largestModulesOf(compilation, [file]),
      };
      messages.push(sharedFileOverBudgetMessage(shown, advice));
    }
    // The parts still over the budget without the files reported above, those with the same files together.
    const bySameFiles = new Map<string, Measured[]>();
    for (const part of parts) {
      const own = part.measurement.files.filter((file) => !shared.has(file));
      if (own.reduce((total, file) => total + gzipSizes(file), 0) <= budget.maxGzipBytes) continue;
      const key = part.measurement.files.join('\n');
      bySameFiles.set(key, [...(bySameFiles.get(key) ?? []), part]);
    }
    for (const [first, ...others] of bySameFiles.values()) {
      if (first === undefined) continue;
      const { files } = first.measurement;
      messages.push(
        overBudgetMessage(first.measurement, {
          sameFiles: others.map(partName),
          fileGzipBytes: Object.fromEntries(files.map((file) => [file, gzipSizes(file)])),
          largestModules: largestModulesOf(
            compilation,
            files.filter((file) => !shared.has(file)),
          ),
          advice,
        }),
      );
    }
  }
  return messages;
}

function partName(item: Measured): string {
  return item.part ?? item.measurement.label;
}

/** The largest modules of the chunks that emitted `files`, a concatenated module counted by its parts. */
function largestModulesOf(compilation: Compilation, files: readonly string[]): ModuleSize[] {
  const wanted = new Set(files);
  const modules = new Map<string, ModuleSize>();
  for (const chunk of compilation.chunks) {
    if (![...chunk.files].some((file) => wanted.has(file))) continue;
    for (const module of compilation.chunkGraph.getChunkModulesIterable(chunk)) {
      const inner: unknown = (module as Module & { modules?: unknown }).modules;
      for (const part of Array.isArray(inner) ? (inner as Module[]) : [module]) {
        modules.set(part.identifier(), {
          name: part.readableIdentifier(compilation.requestShortener),
          bytes: part.size(),
        });
      }
    }
  }
  return [...modules.values()]
    .sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name))
    .slice(0, LARGEST_MODULES_SHOWN);
}

function modulesSentence(modules: readonly ModuleSize[], where = ''): string {
  if (modules.length === 0) return '';
  const shown = modules.map((module) => sized(module.name, module.bytes)).join(', ');
  return ` Largest modules${where} (source size, before minification and gzip): ${shown}.`;
}

function sized(name: string, bytes: number | undefined): string {
  return bytes === undefined ? name : `${name} ${kb(bytes)}`;
}

function listed(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
}

function gzipSizesOf(compilation: Compilation): GzipSizes {
  const sizes = new Map<string, number>();
  return (file) => {
    let size = sizes.get(file);
    if (size === undefined) {
      const asset = compilation.getAsset(file);
      size = asset ? gzipSync(asset.source.buffer(), { level: 9 }).length : 0;
      sizes.set(file, size);
    }
    return size;
  };
}

function measure(compilation: Compilation, budget: BundleBudget, gzipSizes: GzipSizes): Measured[] {
  const { target } = budget;
  const whole = (measurement: BudgetMeasurement): Measured[] => [{ measurement, budget }];
  switch (target.kind) {
    case 'entrypoint': {
      const entrypoint = compilation.entrypoints.get(target.name);
      if (!entrypoint) return whole(missing(compilation, budget, `entrypoint "${target.name}"`));
      const groups = target.includeAsync ? withDescendants(entrypoint) : [entrypoint];
      return whole(measurementOf(budget.label, budget.maxGzipBytes, filesOf(groups), gzipSizes));
    }
    case 'asset': {
      if (!compilation.getAsset(target.file)) return whole(missing(compilation, budget, `file "${target.file}"`));
      return whole(measurementOf(budget.label, budget.maxGzipBytes, [target.file], gzipSizes));
    }
    case 'chunk-groups': {
      const groups = compilation.chunkGroups.filter((group) => group.name?.startsWith(target.prefix));
      return groups
        .map((group) => {
          const part = (group.name ?? '').slice(target.prefix.length);
          const label = `${budget.label} ${part}`;
          return { measurement: measurementOf(label, budget.maxGzipBytes, filesOf([group]), gzipSizes), budget, part };
        })
        .sort((a, b) => a.measurement.label.localeCompare(b.measurement.label));
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

function measurementOf(label: string, maxGzipBytes: number, files: string[], gzipSizes: GzipSizes): BudgetMeasurement {
  const gzipBytes = files.reduce((total, file) => total + gzipSizes(file), 0);
  return { label, files, gzipBytes, maxGzipBytes };
}

function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} KB`;
}
