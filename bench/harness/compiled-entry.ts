import path from 'node:path';
import { compileServer } from '../../scripts/compile-server';
import { REPO_ROOT } from '../../testing/system/repo-root';

/**
 * Inside the repository, so the compiled files find node_modules/ as dist/server/ does; git-ignored with the rest of
 * .tsbuild/.
 */
export const COMPILED_ROOT = path.join(REPO_ROOT, '.tsbuild', 'bench-compiled');

export interface CompiledEntry {
  /** The folder it was compiled into: `<dir>/server/`, `<dir>/shared/` and the entry's own folder. */
  dir: string;
  /** The compiled entry, absolute: what `node` starts. */
  file: string;
}

const compiled = new Map<string, Promise<CompiledEntry>>();

/**
 * An entry of the repository (`server/main.ts`, a bench server or baseline) compiled by the server's own build
 * (scripts/compile-server.ts: swc, CommonJS, source maps) into a folder of its own, once per bench process.
 *
 * Every process the bench times runs compiled JavaScript, as the image and `npm run serve` run the server, and never
 * through the tsx loader: tsx compiles with esbuild's `keepNames`, which wraps each named function and class in a call
 * that sets its `name`, so a closure made for each request also costs a `defineProperty` each time it is made. A
 * server run from source spent more per answer than the artifact operators run (every request traced, by hand: CPU per
 * answer about 12 % higher, in five rounds of six), and the baselines are compiled the same way so that neither side
 * of a ratio carries that cost. A failed compile stays failed for the process: the bench cannot time that entry.
 */
export function compiledEntry(entry: string): Promise<CompiledEntry> {
  let done = compiled.get(entry);
  if (done === undefined) {
    done = compile(entry);
    compiled.set(entry, done);
  }
  return done;
}

async function compile(entry: string): Promise<CompiledEntry> {
  const dir = path.join(COMPILED_ROOT, entry.replace(/\.tsx?$/, '').replace(/[\\/]/g, '-'));
  const result = await compileServer({ root: REPO_ROOT, outDir: dir, entry });
  return { dir, file: path.join(dir, result.entry) };
}
