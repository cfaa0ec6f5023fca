/**
 * A new standalone remote project: `slots-remote new <name> [--dir <path>]` (from the kit's package alone) and
 * `npm run remote:new` in the product's repository run this same code; they differ only in where the template, the
 * dependency versions and the kit's tarball come from ({@link ProjectSource}). The project depends on the kit
 * through a tarball copied into it, so `npm install && npm run build` works there with no product checkout.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REMOTE_NAME_PATTERN } from '../../shared';

/**
 * Stands for the remote's name in the template's files. Not `__NAME__`: Prettier formats the template, and turns
 * `__REMOTE_NAME__` in Markdown prose into `**REMOTE_NAME**` (bold), which no substitution then matched.
 */
export const REMOTE_NAME_PLACEHOLDER = '{{REMOTE_NAME}}';

/** The packages a new project lists, at the versions the product builds and tests with. */
export const PROJECT_PACKAGES = {
  dependencies: ['react', 'react-dom'],
  devDependencies: [
    '@swc/core',
    '@swc/jest',
    '@types/jest',
    '@types/react',
    '@types/react-dom',
    'jest',
    // The slot tests (`renderSlot` of the kit's `./testing`) mount the product's renderer in a DOM.
    'jest-environment-jsdom',
    'typescript',
  ],
} as const;

/** In the kit's package: the template's folder, and the versions of {@link PROJECT_PACKAGES} (written when packed). */
export const PACKAGED_TEMPLATE_FOLDER = 'template';
export const PACKAGED_VERSIONS_FILE = 'project-versions.json';

/** Where a new project's parts come from. */
export interface ProjectSource {
  /** The folder of the template's files. */
  templateDir: string;
  /** The version of every package of {@link PROJECT_PACKAGES}. */
  versions: Readonly<Record<string, string>>;
  /** Writes the kit's tarball into the folder; returns its file name. */
  writeKitTarball(destination: string): string;
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

/** A template file's text for the remote `name`. */
export function fillTemplate(text: string, name: string): string {
  return text.replaceAll(REMOTE_NAME_PLACEHOLDER, name);
}

/**
 * Template files stored under another name than the project's: `npm pack` leaves every `.gitignore` out of a
 * package, so the kit's template keeps it as `gitignore` and a new project gets it under its real name.
 */
const PROJECT_FILE_NAMES: Readonly<Record<string, string>> = { gitignore: '.gitignore' };

/** The name a template file has in a new project (`gitignore` becomes `.gitignore`), relative to the project. */
export function projectFileName(templateFile: string): string {
  const base = path.posix.basename(templateFile);
  const renamed = PROJECT_FILE_NAMES[base];
  return renamed === undefined ? templateFile : path.posix.join(path.posix.dirname(templateFile), renamed);
}

/** The template's files, relative to the template folder. */
export function templateFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? templateFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

export interface NewProjectOptions {
  name: string;
  dir: string;
}

/**
 * `<name> [--dir <path>]`; without `--dir` the project goes to `defaultDir(name)` (`./<name>` for the kit's
 * command, `remotes/<name>/` for the repository's script).
 */
export function parseNewProjectArguments(
  args: readonly string[],
  cwd: string,
  defaultDir: (name: string) => string,
  usage: string,
): NewProjectOptions {
  const positional: string[] = [];
  let dir: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--dir') {
      const value = args[++index];
      if (value === undefined) throw new Error(`--dir needs a path. ${usage}`);
      dir = path.resolve(cwd, value);
    } else if (arg.startsWith('-')) {
      throw new Error(`Unknown option ${arg}. ${usage}`);
    } else {
      positional.push(arg);
    }
  }
  const [name, ...extra] = positional;
  if (name === undefined) throw new Error(usage);
  const given = positional.join(' ');
  // Two words, the first a name: a name with a space given unquoted (`new Team Billing`), or a folder given
  // without --dir (`new team_billing billing-remote`).
  if (extra.length === 1 && REMOTE_NAME_PATTERN.test(name) && dir === undefined) {
    throw new Error(
      `The command takes one name, and "${given}" is two words. A name of two words joins them with _ ` +
        `(${remoteNameLike(given)}: a name has no spaces); a folder for the project is given with --dir ` +
        `(${name} --dir ${extra[0]}). ${usage}`,
    );
  }
  // A name with a space (quoted), a -, more words: what a name is made of, with one made of the words given.
  if (extra.length > 0 || !REMOTE_NAME_PATTERN.test(name)) {
    throw new Error(
      `${JSON.stringify(given)} is not a remote name: a name is one word of letters, digits and _, starting with a ` +
        `letter or _, 64 characters at most (no spaces, no -), e.g. ${remoteNameLike(given)}. ${usage}`,
    );
  }
  return { name, dir: dir ?? defaultDir(name) };
}

/**
 * A remote name the command takes, made of a refused one: `Team Billing` and `team-billing` -> `team_billing`, `2fa`
 * -> `team_2fa`. Lower case, as the project's package name is.
 */
export function remoteNameLike(given: string): string {
  const words = given
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  const joined = words.join('_') || 'team_billing';
  return (/^[a-z]/.test(joined) ? joined : `team_${joined}`).slice(0, 64);
}

function versionsOf(source: ProjectSource, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => {
      const version = source.versions[name];
      if (version === undefined) throw new Error(`No version known for ${name}, a package of every new project`);
      return [name, version];
    }),
  );
}

/** Writes the project; returns the files it wrote, relative to the project. */
export function createRemoteProject(options: NewProjectOptions, source: ProjectSource): string[] {
  const { name, dir } = options;
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new Error(`${dir} exists and is not empty: choose another --dir or remove it.`);
  }
  mkdirSync(dir, { recursive: true });
  const tarball = source.writeKitTarball(dir);
  const packageJson = {
    name: name.replace(/_/g, '-').toLowerCase(),
    version: '0.1.0',
    private: true,
    description: `The ${name} remote: slot components for the slots platform.`,
    // webpack (swc) and Jest only strip types: build and test run the type check first, with the project's
    // tsconfig.json. The dev server's port is not pinned here: `npm run dev -- --port 4200` is its only --port.
    scripts: REMOTE_PROJECT_SCRIPTS,
    dependencies: versionsOf(source, PROJECT_PACKAGES.dependencies),
    devDependencies: {
      '@slots-platform/remote-kit': `file:./${tarball}`,
      ...versionsOf(source, PROJECT_PACKAGES.devDependencies),
    },
    allowScripts: { '@swc/core': true, esbuild: true },
    jest: {
      // A DOM: the slot tests mount components in the product's renderer, as a page would.
      testEnvironment: 'jsdom',
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
  for (const file of templateFiles(source.templateDir)) {
    write(projectFileName(file), fillTemplate(readFileSync(path.join(source.templateDir, file), 'utf8'), name));
  }
  return written;
}

/** What to do next, printed after the project is written. */
export function nextSteps(options: NewProjectOptions, files: readonly string[], cwd: string): string {
  const shown = path.relative(cwd, options.dir) || '.';
  return [
    `Created the remote ${options.name} in ${options.dir}:`,
    ...files.map((file) => `  ${file}`),
    '',
    'Next:',
    `  cd ${shown}`,
    '  npm install',
    '  npm test',
    '  npm run dev     # the host emulator and the remote at http://127.0.0.1:4100/ (npm run dev -- --port <port>)',
    '',
    'Then, to try it with real data, point the product at it (its remote teams\' guide, "Declare and place").',
  ].join('\n');
}
