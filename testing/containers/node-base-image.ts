import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { waitForImagesBuiltAhead } from './images-built-ahead';
import { imageExists } from './podman';

/**
 * The stand-in for `node:20-bookworm-slim`, which no image registry here can serve: Debian bookworm (debootstrap,
 * minbase) with this machine's own Node.js binary, npm and headers, and a user `node` (uid/gid 1000) as the real
 * image has. Named after the Node version, so a machine whose Node changes builds a new one; kept between runs
 * (debootstrap takes 1 to 14 minutes).
 */
export const NODE_BASE_IMAGE = `localhost/slots-standin/node:${process.versions.node}-bookworm-slim`;

/** Where the CA file goes in the base: the registries are reached through a TLS proxy that this CA signs for. */
const CA_FILE_IN_BASE = '/usr/local/share/slots-standin/extra-ca.crt';

export interface BaseImageOptions {
  /** Progress lines (debootstrap's phases, the import). */
  log?: (line: string) => void;
}

/**
 * Builds the stand-in base unless the store already holds it; resolves to its name. Under `.ci/run`, first waits for
 * the images it builds in the background (images-built-ahead.ts), which every image here starts from.
 */
export async function ensureNodeBaseImage(options: BaseImageOptions = {}): Promise<string> {
  await waitForImagesBuiltAhead(options);
  if (await imageExists(NODE_BASE_IMAGE)) return NODE_BASE_IMAGE;
  const log = options.log ?? (() => undefined);
  // Not under /tmp: a tmpfs there would hold the whole root file system in memory.
  const root = fs.mkdtempSync(path.join('/var/tmp', 'slots-standin-rootfs-'));
  try {
    log(`debootstrap --variant=minbase bookworm ${root} (1 to 14 minutes)`);
    await run('debootstrap', ['--variant=minbase', 'bookworm', root, 'http://deb.debian.org/debian'], log);
    useMachineAptSources(root);
    copyNode(root);
    // As the real image: a user `node` (uid 1000, gid 1000) with a home, for `USER node`.
    execFileSync('chroot', [root, 'groupadd', '--gid', '1000', 'node']);
    execFileSync('chroot', [root, 'useradd', '--uid', '1000', '--gid', 'node', '--shell', '/bin/bash', '-m', 'node']);
    const ca = copyExtraCa(root);
    // The apt lists debootstrap left are stale by the time the image is used: a build runs apt-get update anyway.
    fs.rmSync(path.join(root, 'var/lib/apt/lists'), { recursive: true, force: true });
    fs.mkdirSync(path.join(root, 'var/lib/apt/lists/partial'), { recursive: true });
    log(`podman import ${NODE_BASE_IMAGE}`);
    const changes = [
      // node-gyp (better-sqlite3 from source) finds the headers here instead of downloading them.
      'ENV npm_config_nodedir=/usr/local',
      ...(ca ? [`ENV NODE_EXTRA_CA_CERTS=${ca}`] : []),
      'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      'CMD ["node"]',
    ];
    await importRootfs(root, NODE_BASE_IMAGE, changes);
    return NODE_BASE_IMAGE;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The machine's own apt sources and settings (bookworm, its updates and security suites; the mirror's date checks
 * off, as the machine has them): debootstrap writes the main suite alone.
 */
function useMachineAptSources(root: string): void {
  const sources = '/etc/apt/sources.list.d/debian.sources';
  if (!fs.existsSync(sources)) return;
  fs.rmSync(path.join(root, 'etc/apt/sources.list'), { force: true });
  fs.copyFileSync(sources, path.join(root, 'etc/apt/sources.list.d/debian.sources'));
  for (const file of fs.readdirSync('/etc/apt/apt.conf.d')) {
    const text = fs.readFileSync(path.join('/etc/apt/apt.conf.d', file), 'utf8');
    if (/Acquire::Check-Valid-Until|Acquire::Check-Date/.test(text)) {
      fs.writeFileSync(path.join(root, 'etc/apt/apt.conf.d', file), text);
    }
  }
}

/** This machine's node, npm (with the npm and npx links) and Node headers, where the real image has them. */
function copyNode(root: string): void {
  const bin = path.join(root, 'usr/local/bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.copyFileSync(process.execPath, path.join(bin, 'node'));
  fs.chmodSync(path.join(bin, 'node'), 0o755);
  const npmDir = npmInstallDir();
  const npmTarget = path.join(root, 'usr/local/lib/node_modules/npm');
  fs.cpSync(npmDir, npmTarget, { recursive: true, dereference: true });
  fs.symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(bin, 'npm'));
  fs.symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(bin, 'npx'));
  const headers = path.resolve(path.dirname(process.execPath), '..', 'include', 'node');
  if (!fs.existsSync(path.join(headers, 'node.h'))) {
    throw new Error(`Node's headers are not at ${headers} (node-gyp needs them in the base to build better-sqlite3).`);
  }
  fs.cpSync(headers, path.join(root, 'usr/local/include/node'), { recursive: true, dereference: true });
}

/** The folder of this machine's npm package (`npm` on PATH is a link into it). */
function npmInstallDir(): string {
  const npmBin = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
  let dir = path.dirname(fs.realpathSync(npmBin));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    if (dir === path.dirname(dir)) throw new Error(`No npm package above ${npmBin}.`);
    dir = path.dirname(dir);
  }
  return dir;
}

/** Copies the CA file NODE_EXTRA_CA_CERTS names (the TLS proxy's) into the base; its path there, if any. */
function copyExtraCa(root: string): string | undefined {
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  if (!ca || !fs.existsSync(ca)) return undefined;
  fs.mkdirSync(path.join(root, path.dirname(CA_FILE_IN_BASE)), { recursive: true });
  fs.copyFileSync(ca, path.join(root, CA_FILE_IN_BASE));
  return CA_FILE_IN_BASE;
}

/** `tar -C <root> -c . | podman import --change … - <name>`. */
function importRootfs(root: string, name: string, changes: readonly string[]): Promise<void> {
  const args = ['import', ...changes.flatMap((change) => ['--change', change]), '-', name];
  return new Promise((resolve, reject) => {
    const tar = spawn('tar', ['-C', root, '--numeric-owner', '-c', '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const importer = spawn('podman', args, { stdio: ['pipe', 'ignore', 'pipe'] });
    let errors = '';
    tar.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    importer.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    tar.stdout.pipe(importer.stdin);
    tar.once('error', reject);
    importer.once('error', reject);
    importer.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`podman import ${name} exited ${code}: ${errors}`));
    });
  });
}

function run(command: string, args: readonly string[], log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
    });
    let output = '';
    const collect = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-20_000);
      // debootstrap prints a line per package; its phases are the I: lines worth showing.
      for (const line of chunk.toString().split('\n')) if (/^I: (Retriev|Extract|Install|Base)/.test(line)) log(line);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}\n${output}`));
    });
  });
}
