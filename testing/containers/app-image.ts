import { execFileSync } from 'node:child_process';
import { REPO_ROOT } from '../system/repo-root';
import { ensureNodeBaseImage, type BaseImageOptions } from './node-base-image';
import { podman } from './podman';

/** The image the tests build of this checkout (tagged anew by each build; podman's layer cache keeps it quick). */
export const APP_IMAGE = 'localhost/slots-platform:test';

export interface AppImageOptions extends BaseImageOptions {
  /** Image name; APP_IMAGE by default. */
  name?: string;
  /** APP_ENTRY: an application's entry relative to the checkout; the Dockerfile's default (the demo) when unset. */
  entry?: string;
}

/**
 * Builds the repository's Dockerfile, unchanged, on the stand-in base (BASE_IMAGE), as an operator builds it on
 * `node:20-bookworm-slim`. Host network for the build's `apt-get` and `npm ci`, which reach their mirrors as this
 * machine does. Resolves to the image name.
 */
export async function buildAppImage(options: AppImageOptions = {}): Promise<string> {
  const base = await ensureNodeBaseImage(options);
  const name = options.name ?? APP_IMAGE;
  const args = [
    ...buildArguments(base),
    ...(options.entry ? ['--build-arg', `APP_ENTRY=${options.entry}`] : []),
    '--tag',
    name,
    REPO_ROOT,
  ];
  options.log?.(`podman build ${name}${options.entry ? ` (APP_ENTRY=${options.entry})` : ''}`);
  // Step lines only: the build's own output (npm, webpack) is kept for the error if it fails.
  await podman(args, { onOutput: (line) => (/^\[\d+\/\d+\] STEP /.test(line) ? options.log?.(line) : undefined) });
  return name;
}

/**
 * Builds the Dockerfile's stages up to the production dependencies (apt-get, `npm ci`, better-sqlite3 compiled) into
 * podman's layer cache, with the same arguments as buildAppImage, so that its build starts from them. They depend on
 * package.json and its lock file alone: build-images-ahead.ts makes them while the checkout is still being tested.
 */
export async function buildAppDependencies(options: BaseImageOptions = {}): Promise<void> {
  const base = await ensureNodeBaseImage(options);
  options.log?.("podman build --target production-dependencies (the app image's dependency layers)");
  await podman([...buildArguments(base), '--target', 'production-dependencies', REPO_ROOT], {
    onOutput: (line) => (/^\[\d+\/\d+\] STEP /.test(line) ? options.log?.(line) : undefined),
  });
}

/** What every build of the Dockerfile here is given (its layer cache matches only builds given the same). */
function buildArguments(base: string): string[] {
  return [
    'build',
    // Docker's image format, as `docker build` writes: the OCI format has no HEALTHCHECK, and podman drops it.
    '--format',
    'docker',
    '--network',
    'host',
    '--build-arg',
    `BASE_IMAGE=${base}`,
    '--build-arg',
    `REVISION=${currentRevision()}`,
  ];
}

/** The REVISION the operators' guide gives: the full commit, `-dirty` after it when tracked files had changes. */
function currentRevision(): string {
  try {
    return execFileSync('git', ['describe', '--always', '--abbrev=40', '--dirty', '--exclude=*'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }).trim();
  } catch {
    return 'unknown';
  }
}

/** Bytes of an image's own layers above `base` (podman reports both sizes whole). */
export async function imageSizeAbove(image: string, base: string): Promise<number> {
  const size = async (name: string) =>
    Number((await podman(['image', 'inspect', '--format', '{{.Size}}', name])).stdout);
  return (await size(image)) - (await size(base));
}
