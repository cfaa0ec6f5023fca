/**
 * `npm run remote:new -- <name> [--dir <path>]`: creates a standalone remote project, by default in
 * `remotes/<name>/`, with `--dir` anywhere (outside this repository too). The project depends on the remote kit
 * through a packed tarball copied into it, so `npm install && npm run build` works there without this repository.
 * It starts with one component, `Hello` (`{ name: string }`), its test, and the scripts `build`, `dev`, `test` and
 * `typecheck`; `build` and `test` type-check first (webpack and Jest only strip types).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REMOTE_NAME_PATTERN } from '../shared';
import { packKit } from './kit-pack';

const ROOT_DIR = path.resolve(__dirname, '..');
const TEMPLATE_DIR = path.join(ROOT_DIR, 'remotes', 'kit', 'template');
const USAGE =
  'usage: npm run remote:new -- <name> [--dir <path>]   (name: a Module Federation name, e.g. team_billing)';

/**
 * Stands for the remote's name in the template's files. Not `__NAME__`: Prettier formats the template, and turns
 * `__REMOTE_NAME__` in Markdown prose into `**REMOTE_NAME**` (bold), which no substitution then matched.
 */
export const REMOTE_NAME_PLACEHOLDER = '{{REMOTE_NAME}}';

/** A template file's text for the remote `name`. */
export function fillTemplate(text: string, name: string): string {
  return text.replaceAll(REMOTE_NAME_PLACEHOLDER, name);
}

/** The template's files, relative to the template folder. */
export function templateFiles(dir = TEMPLATE_DIR, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? templateFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

export function readTemplateFile(file: string): string {
  return readFileSync(path.join(TEMPLATE_DIR, file), 'utf8');
}

export interface RemoteNewOptions {
  name: string;
  dir: string;
}

export function parseRemoteNewArguments(args: readonly string[], cwd: string): RemoteNewOptions {
  const positional: string[] = [];
  let dir: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--dir') {
      const value = args[++index];
      if (value === undefined) throw new Error(`--dir needs a path. ${USAGE}`);
      dir = path.resolve(cwd, value);
    } else if (arg.startsWith('-')) {
      throw new Error(`Unknown option ${arg}. ${USAGE}`);
    } else {
      positional.push(arg);
    }
  }
  const [name, ...extra] = positional;
  if (name === undefined || extra.length > 0) throw new Error(USAGE);
  if (!REMOTE_NAME_PATTERN.test(name)) {
    throw new Error(`"${name}" is not a remote name: letters, digits and _, starting with a letter or _. ${USAGE}`);
  }
  return { name, dir: dir ?? path.join(ROOT_DIR, 'remotes', name) };
}

/** The versions this repository builds and tests with, so a new project starts on the same ones. */
function versionsOf(...names: string[]): Record<string, string> {
  const manifest = JSON.parse(readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const all = { ...manifest.dependencies, ...manifest.devDependencies };
  return Object.fromEntries(
    names.map((name) => {
      const version = all[name];
      if (version === undefined) throw new Error(`package.json of the repository has no ${name}`);
      return [name, version];
    }),
  );
}

/** The scripts of a new project's package.json. */
export const REMOTE_PROJECT_SCRIPTS = {
  typecheck: 'tsc --noEmit',
  build: 'tsc --noEmit && slots-remote build',
  dev: 'slots-remote dev',
  test: 'tsc --noEmit && jest',
  // Publishes the build once it is on its origin (the team token in SLOTS_RELEASE_TOKEN): `slots-remote release`.
  release: 'slots-remote release',
} as const;

/** Writes the project; returns the files it wrote, relative to the project. */
export function createRemoteProject(options: RemoteNewOptions): string[] {
  const { name, dir } = options;
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new Error(`${dir} exists and is not empty: choose another --dir or remove it.`);
  }
  mkdirSync(dir, { recursive: true });
  const tarball = packKit(dir);
  const packageJson = {
    name: name.replace(/_/g, '-').toLowerCase(),
    version: '0.1.0',
    private: true,
    description: `The ${name} remote: slot components for the slots platform.`,
    // webpack (swc) and Jest only strip types: build and test run the type check first, with the project's
    // tsconfig.json. The dev server's port is not pinned here: `npm run dev -- --port 4200` is its only --port.
    scripts: REMOTE_PROJECT_SCRIPTS,
    dependencies: versionsOf('react', 'react-dom'),
    devDependencies: {
      '@slots-platform/remote-kit': `file:./${tarball}`,
      ...versionsOf('@swc/core', '@swc/jest', '@types/jest', '@types/react', '@types/react-dom', 'jest', 'typescript'),
    },
    allowScripts: { '@swc/core': true, esbuild: true },
    jest: {
      testEnvironment: 'node',
      transform: {
        '^.+\\.tsx?$': [
          '@swc/jest',
          { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } } },
        ],
      },
    },
  };
  const written = [tarball];
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
    written.push(file);
  };
  write('package.json', `${JSON.stringify(packageJson, null, 2)}\n`);
  for (const file of templateFiles()) {
    write(file, fillTemplate(readTemplateFile(file), name));
  }
  return written;
}

function main(): void {
  const options = parseRemoteNewArguments(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd());
  const files = createRemoteProject(options);
  const shown = path.relative(process.cwd(), options.dir) || '.';
  console.log(`Created the remote ${options.name} in ${options.dir}:`);
  for (const file of files) console.log(`  ${file}`);
  console.log(
    `\nNext:\n  cd ${shown}\n  npm install\n  npm test\n  npm run dev     # serves it at http://127.0.0.1:4100/mf-manifest.json (npm run dev -- --port <port>)`,
  );
  console.log('Then declare it in the product\'s REMOTES_CONFIG (docs/remote-teams.md, "5. Declare and place").');
}

if (require.main === module) {
  try {
    main();
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
