/**
 * `npm run remotes:types [-- <slots-remote.json file or URL>...] [--from-config]` (also run by `npm run build`):
 * writes server/slots/generated/known-slot-components.ts, the declarations that type `Slot.make` in server code, from
 * the declarations of the remotes this repository builds (their remote.ts) and from any further descriptor given,
 * e.g. a kit-built remote another team deploys. `--from-config` adds the descriptors of the kit-built remotes that
 * REMOTES_CONFIG adds (read from their origins, as the server does); a remote that does not answer is left untyped
 * with a warning, so a build never depends on another team's origin. Explicit, not implied by REMOTES_CONFIG: the
 * file is committed, so `npm run typecheck` never waits for a build, and a test checks that it matches this
 * repository's declarations (`--check`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { slotComponentTypes } from '../build/slot-component-types';
import { boundedText } from '../server/http/bounded-text';
import { redirectRefusal } from '../server/http/redirect-refusal';
import { DESCRIPTOR_MAX_BYTES } from '../server/remotes/http-descriptor-source';
import { parseRemoteDescriptorFile } from '../server/remotes/remote-names';
import { loadRemotesConfig } from '../server/remotes/remotes-config';
import type { RemoteDescriptorFile } from '../shared';
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

/**
 * A descriptor file (`slots-remote.json`) from a file or an http(s) URL, checked as the server checks one it reads: its
 * names end up in a committed TypeScript file, and it may come from another team's origin.
 */
async function readDescriptor(source: string): Promise<RemoteDescriptorFile> {
  const text = /^https?:\/\//.test(source) ? await fetchDescriptor(source) : readFileSync(path.resolve(source), 'utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseRemoteDescriptorFile(raw, source);
}

/**
 * The text of the descriptor at `url`, read as the server reads one (http-descriptor-source.ts): at the address given
 * (a redirect, which could point the developer's machine at any address of its network, is refused, never followed)
 * and at most DESCRIPTOR_MAX_BYTES of it (another team's origin must not fill this process's memory).
 */
async function fetchDescriptor(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'manual' }).catch(
    (error: unknown) => {
      // fetch says only "fetch failed": the reason is its cause (refused, unknown host, timed out).
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new Error(`${url} could not be read (${cause})`);
    },
  );
  const redirect = await redirectRefusal(url, response);
  if (redirect !== null) throw new Error(redirect);
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${url} answered ${response.status}`);
  }
  const text = await boundedText(response, DESCRIPTOR_MAX_BYTES);
  if (text === null) throw new Error(`${url} is larger than ${DESCRIPTOR_MAX_BYTES} bytes`);
  return text;
}

/**
 * The descriptor URLs of the remotes REMOTES_CONFIG adds by their manifest alone (built with the kit); remotes that
 * list their components (a plain remoteEntry.js) have no schemas to type.
 */
export function configuredDescriptorUrls(env: NodeJS.ProcessEnv, cwd = process.cwd()): string[] {
  if (!env.REMOTES_CONFIG?.trim()) {
    throw new Error('--from-config needs REMOTES_CONFIG: the path of the remotes configuration to read.');
  }
  return loadRemotesConfig({ env, distDir: path.join(ROOT_DIR, 'dist'), cwd }).pending.map(
    (remote) => remote.descriptorUrl,
  );
}

export interface KnownSlotComponentsOptions {
  /** Descriptors that must be read (named on the command line): one that cannot be read fails. */
  required?: readonly string[];
  /** Descriptors read if they answer (from REMOTES_CONFIG): one that does not is reported to `warn` and skipped. */
  optional?: readonly string[];
  warn?: (message: string) => void;
}

/** The descriptors of this repository's remotes, each replaced or joined by one read from the options' sources. */
export async function collectDescriptors(options: KnownSlotComponentsOptions = {}): Promise<RemoteDescriptorFile[]> {
  const remotes: RemoteDescriptorFile[] = findRepositoryRemotes(ROOT_DIR).map(({ descriptor }) => descriptor);
  const extras: RemoteDescriptorFile[] = [];
  for (const source of options.required ?? []) extras.push(await readDescriptor(source));
  for (const source of options.optional ?? []) {
    try {
      extras.push(await readDescriptor(source));
    } catch (error) {
      options.warn?.(`Not typed: ${source} (${error instanceof Error ? error.message : String(error)}).`);
    }
  }
  for (const extra of extras) {
    const at = remotes.findIndex((remote) => remote.name === extra.name);
    if (at >= 0) remotes.splice(at, 1, extra);
    else remotes.push(extra);
  }
  return remotes;
}

/** The generated file's content, formatted as the repository formats TypeScript. */
export async function knownSlotComponentsSource(options: KnownSlotComponentsOptions = {}): Promise<string> {
  const remotes = await collectDescriptors(options);
  // Loaded here, not at the top: prettier's CommonJS entry starts an import() as it loads, which Jest's module
  // system refuses, so a test of the functions above could not even load this file.
  const { default: prettier } = await import('prettier');
  const formatting = (await prettier.resolveConfig(KNOWN_SLOT_COMPONENTS_FILE)) ?? {};
  return prettier.format(slotComponentTypes(remotes, SLOT_MODULE), { ...formatting, parser: 'typescript' });
}

/** What the command takes besides descriptors; anything else starting with `--` is a mistake, not a file. */
const OPTIONS: ReadonlySet<string> = new Set(['--check', '--from-config']);
const USAGE = 'usage: npm run remotes:types [-- <slots-remote.json file or URL>...] [--from-config]';

/** The remotes a generated file types (its `/** Remote \`<name>\`. *\/` comments). */
export function typedRemotesIn(source: string): Set<string> {
  return new Set([...source.matchAll(/\/\*\* Remote `([^`]+)`\. \*\//g)].map((match) => match[1] ?? ''));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg.startsWith('-') && !OPTIONS.has(arg));
  if (unknown.length > 0) {
    console.error(`Unknown option ${unknown.join(', ')}. ${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const check = args.includes('--check');
  const source = await knownSlotComponentsSource({
    required: args.filter((arg) => !arg.startsWith('--')),
    optional: args.includes('--from-config') ? configuredDescriptorUrls(process.env) : [],
    warn: (message) => console.warn(message),
  });
  const file = path.relative(ROOT_DIR, KNOWN_SLOT_COMPONENTS_FILE);
  if (check) {
    // `--check`: what a test runs, to know the committed file matches the declarations.
    const current = readFileSync(KNOWN_SLOT_COMPONENTS_FILE, 'utf8');
    if (current !== source) throw new Error(`${file} is not current: run npm run remotes:types and commit it.`);
    console.log(`${file} is current.`);
    return;
  }
  // Written only when it changes: `npm test` builds while it type-checks (scripts/side-by-side.ts), and rewriting the
  // same text would leave the type check a moment to read the file empty.
  if (existsSync(KNOWN_SLOT_COMPONENTS_FILE) && readFileSync(KNOWN_SLOT_COMPONENTS_FILE, 'utf8') === source) {
    console.log(`${file} is current.`);
    return;
  }
  // A remote typed from a descriptor given before (another team's) is gone from this run's file: said, as the
  // build runs this without one and the application's own type check would then fail on its Slot.make calls.
  if (existsSync(KNOWN_SLOT_COMPONENTS_FILE)) {
    const now = typedRemotesIn(source);
    const dropped = [...typedRemotesIn(readFileSync(KNOWN_SLOT_COMPONENTS_FILE, 'utf8'))].filter(
      (name) => !now.has(name),
    );
    if (dropped.length > 0) {
      console.warn(
        `No longer typed: ${dropped.join(', ')} (typed from a descriptor given to an earlier run). Give its ` +
          'descriptor again to keep it: npm run remotes:types -- <slots-remote.json file or URL> (npm run build ' +
          'runs this without one).',
      );
    }
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
