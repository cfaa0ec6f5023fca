import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureNodeBaseImage, type BaseImageOptions } from './node-base-image';
import { podman } from './podman';

/**
 * A stand-in for a public image (PostgreSQL, Redis, nginx) that no registry here serves: the stand-in Debian base
 * with Debian's package of the same program, set up to behave as the public image does where a deployment relies on
 * it (its environment variables, ports, volumes, command). What each one is: standin-images.ts.
 */
export interface PackageImageSpec {
  /** Image name, e.g. `localhost/slots-standin/postgres:15`. */
  name: string;
  /** Debian packages installed with apt-get. */
  packages: readonly string[];
  /** Files written into the image (path in the image → content; scripts are made executable). */
  files?: Readonly<Record<string, string>>;
  /** Containerfile lines run before the packages are installed (e.g. a setting their installation reads). */
  beforeInstall?: readonly string[];
  /** Containerfile lines after the files are in place: RUN set-up, ENV, USER, VOLUME, EXPOSE, ENTRYPOINT, CMD. */
  lines: readonly string[];
}

/** Label holding the hash of the spec an image was built from: a changed spec is rebuilt, an unchanged one reused. */
const SPEC_LABEL = 'org.slots-platform.standin-spec';

/** Builds the stand-in (and the base under it) unless the store holds one built from this very spec. */
export async function ensurePackageImage(spec: PackageImageSpec, options: BaseImageOptions = {}): Promise<string> {
  const base = await ensureNodeBaseImage(options);
  const containerfile = containerfileOf(spec, base);
  const hash = createHash('sha256')
    .update(containerfile)
    .update(JSON.stringify(spec.files ?? {}))
    .digest('hex');
  const existing = await podman(['image', 'inspect', '--format', `{{ index .Labels "${SPEC_LABEL}" }}`, spec.name], {
    allowFailure: true,
  });
  if (existing.code === 0 && existing.stdout.trim() === hash) return spec.name;

  const context = fs.mkdtempSync(path.join('/var/tmp', 'slots-standin-context-'));
  try {
    fs.writeFileSync(path.join(context, 'Containerfile'), `${containerfile}LABEL ${SPEC_LABEL}=${hash}\n`);
    for (const [target, content] of Object.entries(spec.files ?? {})) {
      const local = path.join(context, 'files', target);
      fs.mkdirSync(path.dirname(local), { recursive: true });
      fs.writeFileSync(local, content, { mode: content.startsWith('#!') ? 0o755 : 0o644 });
    }
    options.log?.(`podman build ${spec.name} (${spec.packages.join(', ')})`);
    // Host network: apt reaches Debian's mirrors as this machine does.
    await podman(['build', '--network', 'host', '-t', spec.name, '-f', 'Containerfile', context]);
    return spec.name;
  } finally {
    fs.rmSync(context, { recursive: true, force: true });
  }
}

function containerfileOf(spec: PackageImageSpec, base: string): string {
  const files = Object.keys(spec.files ?? {}).map((target) => `COPY files${target} ${target}`);
  return [
    `FROM ${base}`,
    ...(spec.beforeInstall ?? []),
    'RUN apt-get update \\',
    `  && apt-get install -y --no-install-recommends ${spec.packages.join(' ')} \\`,
    '  && rm -rf /var/lib/apt/lists/*',
    ...files,
    ...spec.lines,
    '',
  ].join('\n');
}
