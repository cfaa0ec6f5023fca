/**
 * `npm run remotes:types [-- <slots-remote.json file or URL>...]` (also run by `npm run build`): writes
 * server/slots/generated/known-slot-components.ts, the declarations that type `Slot.make` in server code, from the
 * declarations of the remotes this repository builds (their remote.ts) and from any further descriptor given, e.g.
 * a kit-built remote another team deploys. The file is committed, so `npm run typecheck` never waits for a build;
 * a test checks that it matches the declarations (`--check`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import prettier from 'prettier';
import { slotComponentTypes, type TypedRemote } from '../build/slot-component-types';
import { findRepositoryRemotes } from '../webpack.config';

const ROOT_DIR = path.resolve(__dirname, '..');
export const KNOWN_SLOT_COMPONENTS_FILE = path.join(
  ROOT_DIR,
  'server',
  'slots',
  'generated',
  'known-slot-components.ts',
);
const SLOT_MODULE = '../../../shared/slot';

/** A descriptor (`slots-remote.json`) from a file or an http(s) URL. */
async function readDescriptor(source: string): Promise<TypedRemote> {
  const text = /^https?:\/\//.test(source)
    ? await (async () => {
        const response = await fetch(source, { signal: AbortSignal.timeout(10_000) });
        if (!response.ok) throw new Error(`${source} answered ${response.status}`);
        return response.text();
      })()
    : readFileSync(path.resolve(source), 'utf8');
  const descriptor = JSON.parse(text) as TypedRemote;
  if (typeof descriptor.name !== 'string' || !Array.isArray(descriptor.components)) {
    throw new Error(`${source} is not a remote descriptor ({ name, components, props }).`);
  }
  return descriptor;
}

/** The generated file's content, formatted as the repository formats TypeScript. */
export async function knownSlotComponentsSource(descriptorSources: readonly string[] = []): Promise<string> {
  const remotes: TypedRemote[] = findRepositoryRemotes(ROOT_DIR).map(({ descriptor }) => descriptor);
  for (const source of descriptorSources) {
    const extra = await readDescriptor(source);
    const at = remotes.findIndex((remote) => remote.name === extra.name);
    if (at >= 0) remotes.splice(at, 1, extra);
    else remotes.push(extra);
  }
  const options = (await prettier.resolveConfig(KNOWN_SLOT_COMPONENTS_FILE)) ?? {};
  return prettier.format(slotComponentTypes(remotes, SLOT_MODULE), { ...options, parser: 'typescript' });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const source = await knownSlotComponentsSource(args.filter((arg) => arg !== '--check'));
  const file = path.relative(ROOT_DIR, KNOWN_SLOT_COMPONENTS_FILE);
  if (check) {
    // `--check`: what a test runs, to know the committed file matches the declarations.
    const current = readFileSync(KNOWN_SLOT_COMPONENTS_FILE, 'utf8');
    if (current !== source) throw new Error(`${file} is not current: run npm run remotes:types and commit it.`);
    console.log(`${file} is current.`);
    return;
  }
  writeFileSync(KNOWN_SLOT_COMPONENTS_FILE, source);
  console.log(`Wrote ${file}.`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
