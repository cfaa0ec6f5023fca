/**
 * The server as CommonJS JavaScript, for `node` alone (no tsx, no TypeScript at run time): every file of server/ and
 * shared/ but the tests, plus an application's own entry and whatever it imports, each compiled with @swc/core
 * (types stripped; `npm run typecheck` checks them) and written with its source map under `outDir`, at the same path
 * as its source relative to the repository root: server/main.ts becomes <outDir>/server/main.js, shared/ goes to
 * <outDir>/shared/, so the relative imports between them (`../../shared`) hold unchanged. With outDir = dist/, the
 * compiled server/app-options.js sits in dist/server/ and finds the build output one folder up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { transformFile, type Options } from '@swc/core';

/** Folders compiled whole: the server and the contract it imports. */
const SOURCE_FOLDERS = ['server', 'shared'];
/**
 * Folders of <outDir> the front-end build writes (served under /remotes/ and as the host page): an entry whose
 * imports would compile into them is refused rather than mixed into what browsers are served.
 */
const FRONT_END_FOLDERS = ['host', 'remotes', 'kit'];
/** The file in <outDir> that requires the compiled entry: what the image starts (Dockerfile `CMD`). */
export const ENTRY_LAUNCHER = 'entry.js';
/** What the last compile wrote outside server/ and shared/ (an application's own folder), removed by the next. */
const WRITTEN_LIST = '.server-files.json';
const SOURCE_EXTENSIONS = ['.ts', '.tsx'];

export interface CompileServerOptions {
  /** The repository root (sources are read relative to it). */
  root: string;
  /** Where the JavaScript goes: `<root>/dist` for `npm run build`. */
  outDir: string;
  /** The entry the launcher starts, relative to root: server/main.ts (the demo) unless an application names its own. */
  entry?: string;
}

export interface CompiledServer {
  /** Files compiled (sources relative to root). */
  files: string[];
  /** The compiled entry, relative to outDir, e.g. `server/main.js`. */
  entry: string;
}

export async function compileServer(options: CompileServerOptions): Promise<CompiledServer> {
  const root = path.resolve(options.root);
  const outDir = path.resolve(options.outDir);
  const entry = path.resolve(root, options.entry ?? path.join('server', 'main.ts'));
  if (!fs.existsSync(entry)) throw new Error(`The entry ${path.relative(root, entry)} does not exist.`);
  removePreviousOutput(outDir);

  const queue = [...SOURCE_FOLDERS.flatMap((folder) => sourcesUnder(path.join(root, folder))), entry];
  const seen = new Set<string>();
  const written: string[] = [];
  // Breadth-first through the relative imports: an entry outside server/ brings its own modules along.
  while (queue.length > 0) {
    const batch = queue.splice(0).filter((file) => !seen.has(file));
    for (const file of batch) seen.add(file);
    // Every file of the batch settled before a failure is thrown: a refused file must not leave the others still
    // writing into the output after the caller has given up on it (and removed it).
    const settled = await Promise.allSettled(batch.map((file) => compileFile(root, outDir, file)));
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const outputs = settled.map((result) => (result as PromiseFulfilledResult<CompiledFile>).value);
    for (const output of outputs) {
      written.push(output.outFile);
      for (const specifier of output.relativeRequires) {
        const resolved = resolveImport(path.dirname(output.source), specifier);
        if (resolved === undefined) {
          throw new Error(`${path.relative(root, output.source)} imports ${specifier}, which was not found.`);
        }
        if (isSource(resolved)) queue.push(resolved);
        else if (!seen.has(resolved)) {
          // A JSON file (resolveJsonModule) or plain JavaScript: required as it is.
          seen.add(resolved);
          written.push(copyBeside(root, outDir, resolved));
        }
      }
    }
  }

  const compiledEntry = toPosix(path.relative(outDir, outputPathOf(root, outDir, entry)));
  fs.writeFileSync(
    path.join(outDir, ENTRY_LAUNCHER),
    `// Written by scripts/compile-server.ts: the entry this build compiled, which the image starts.\n` +
      `require('./${compiledEntry}');\n`,
  );
  const outsideFolders = written.filter((file) => !SOURCE_FOLDERS.includes(topFolder(outDir, file)));
  fs.writeFileSync(
    path.join(outDir, WRITTEN_LIST),
    JSON.stringify(outsideFolders.map((f) => path.relative(outDir, f))),
  );
  return { files: [...seen].map((file) => toPosix(path.relative(root, file))).sort(), entry: compiledEntry };
}

interface CompiledFile {
  source: string;
  outFile: string;
  relativeRequires: string[];
}

const SWC_OPTIONS: Options = {
  swcrc: false,
  configFile: false,
  sourceMaps: true,
  module: { type: 'commonjs' },
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', tsx: false },
    transform: { react: { runtime: 'automatic' } },
  },
};

async function compileFile(root: string, outDir: string, source: string): Promise<CompiledFile> {
  const outFile = outputPathOf(root, outDir, source);
  const topLevel = topFolder(outDir, outFile);
  if (FRONT_END_FOLDERS.includes(topLevel)) {
    throw new Error(
      `${path.relative(root, source)} would compile into ${path.relative(root, outFile)}, among the front-end build's ` +
        `files (served to browsers): keep the application's server code out of ${FRONT_END_FOLDERS.join('/, ')}/.`,
    );
  }
  const parser = { syntax: 'typescript' as const, tsx: source.endsWith('.tsx') };
  const output = await transformFile(source, { ...SWC_OPTIONS, jsc: { ...SWC_OPTIONS.jsc, parser } });
  if (output.map === undefined) throw new Error(`swc wrote no source map for ${source}.`);
  // The map names the TypeScript file by its path from the map, so Node's --enable-source-maps reports
  // `server/app.ts:123` in stack traces (the source itself need not be there: the image ships none).
  const map = JSON.parse(output.map) as { sources: string[]; file?: string };
  map.sources = [toPosix(path.relative(path.dirname(outFile), source))];
  map.file = path.basename(outFile);
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(`${outFile}.map`, JSON.stringify(map));
  fs.writeFileSync(outFile, `${output.code}\n//# sourceMappingURL=${path.basename(outFile)}.map\n`);
  return { source, outFile, relativeRequires: relativeRequiresOf(output.code) };
}

/** swc writes every import, static or `require` in the source, as `require("<specifier>")`. */
function relativeRequiresOf(code: string): string[] {
  return [...code.matchAll(/\brequire\(\s*["'](\.{1,2}\/[^"']*|\.{1,2})["']\s*\)/g)].map((match) => match[1] ?? '');
}

/** Node's resolution of a relative specifier, with TypeScript sources standing for their .js output. */
function resolveImport(fromDir: string, specifier: string): string | undefined {
  const base = path.resolve(fromDir, specifier);
  const candidates = [
    base,
    ...SOURCE_EXTENSIONS.map((extension) => base + extension),
    base + '.json',
    ...SOURCE_EXTENSIONS.map((extension) => path.join(base, `index${extension}`)),
  ];
  return candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
}

function sourcesUnder(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((relative) => path.join(folder, relative))
    .filter((file) => isSource(file) && !/\.test\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
    .filter((file) => fs.statSync(file).isFile());
}

function isSource(file: string): boolean {
  return SOURCE_EXTENSIONS.includes(path.extname(file)) && !file.endsWith('.d.ts');
}

function outputPathOf(root: string, outDir: string, source: string): string {
  const relative = path.relative(root, source);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new Error(`${source} is outside the repository (${root}): an entry and its imports must be inside it.`);
  }
  return path.join(outDir, relative.replace(/\.tsx?$/, '.js'));
}

function copyBeside(root: string, outDir: string, file: string): string {
  const target = path.join(outDir, path.relative(root, file));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(file, target);
  return target;
}

/**
 * server/ and shared/ are rewritten whole, so a file moved or deleted in the source leaves nothing behind; files an
 * application's entry brought from elsewhere are listed by the previous compile and removed one by one (dist/ also
 * holds the front-end build).
 */
function removePreviousOutput(outDir: string): void {
  for (const folder of SOURCE_FOLDERS) fs.rmSync(path.join(outDir, folder), { recursive: true, force: true });
  const list = path.join(outDir, WRITTEN_LIST);
  if (!fs.existsSync(list)) return;
  for (const relative of JSON.parse(fs.readFileSync(list, 'utf8')) as string[]) {
    fs.rmSync(path.join(outDir, relative), { force: true });
    fs.rmSync(path.join(outDir, `${relative}.map`), { force: true });
  }
}

function topFolder(outDir: string, file: string): string {
  return path.relative(outDir, file).split(path.sep)[0] ?? '';
}

function toPosix(file: string): string {
  return file.split(path.sep).join('/');
}
