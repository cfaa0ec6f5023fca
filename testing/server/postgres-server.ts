import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { describeWithCommand } from '../describe-with-command';
import { getFreePort, releasePort } from '../system/free-port';
import { makeTempDir, type TempDir } from '../temp-dir';
import type { StorageSettings } from '../../server/storage/open-storage';

/**
 * A throwaway PostgreSQL server for a test: Debian's `postgresql` package, a cluster made by `initdb` in a temporary
 * folder, listening on a free loopback port and a socket in that folder, removed when stopped. The server is a child
 * of the test process (not a pg_ctl daemon), so a test runner that dies takes it along.
 *
 * `initdb` and `postgres` refuse to run as root: under root (CI, this project's machines) both run as the `postgres`
 * user that the Debian package creates, and the folder is handed to that user.
 */

const STOP_GRACE_MS = 10_000;
const START_TIMEOUT_MS = 30_000;

/** Where Debian keeps the server's programs (`/usr/lib/postgresql/<major>/bin`), newest major first; null if none. */
export function findPostgresBinDir(root = '/usr/lib/postgresql'): string | null {
  let majors: string[];
  try {
    majors = fs.readdirSync(root).filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  majors.sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const bin = path.join(root, major, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb')) && fs.existsSync(path.join(bin, 'postgres'))) return bin;
  }
  return null;
}

/**
 * `describe` for a suite that needs a real PostgreSQL: skipped with the install command on a developer's machine
 * without the package, failing under CI (see describeWithCommand).
 */
export function describeWithPostgres(): (name: string, suite: () => void) => void {
  const bin = findPostgresBinDir();
  return describeWithCommand(bin ? path.join(bin, 'initdb') : 'initdb', ['--version'], 'postgresql');
}

interface RunAs {
  uid?: number;
  gid?: number;
}

/** As root, the `postgres` account's ids (the server refuses root); otherwise nothing to change. */
function serverAccount(): RunAs {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error('PostgreSQL refuses to run as root and there is no "postgres" user (apt-get install postgresql).');
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export interface PostgresServerOptions {
  /** A fixed port, e.g. to bring the server back where the app expects it; else a free one, given back by remove(). */
  port?: number;
}

export class PostgresServer {
  private child: ChildProcess | null = null;
  private exitPromise: Promise<void> = Promise.resolve();
  private outputText = '';
  private readonly killOnParentExit = (): void => {
    this.child?.kill('SIGKILL');
  };

  private constructor(
    private readonly bin: string,
    private readonly folder: TempDir,
    private readonly account: RunAs,
    readonly port: number,
    private readonly portPicked: boolean, // by start(), not the caller: remove() gives it back
  ) {}

  /** initdb into a fresh temporary folder, then start the server. */
  static async start(options: PostgresServerOptions = {}): Promise<PostgresServer> {
    const bin = findPostgresBinDir();
    if (bin === null) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql (.ci/run does it).');
    const account = serverAccount();
    const folder = makeTempDir('slots-postgres-');
    try {
      if (account.uid !== undefined) fs.chownSync(folder.path, account.uid, account.gid ?? account.uid);
      const init = spawnSync(
        path.join(bin, 'initdb'),
        ['-D', path.join(folder.path, 'data'), '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'],
        { encoding: 'utf8', ...account, env: { ...process.env, LC_ALL: 'C.UTF-8' } },
      );
      if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);
      const port = options.port ?? (await getFreePort());
      const server = new PostgresServer(bin, folder, account, port, options.port === undefined);
      await server.resume();
      return server;
    } catch (error) {
      folder.remove();
      throw error;
    }
  }

  /** `postgres://postgres@127.0.0.1:<port>/<database>`, the value for DATABASE_URL. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** The temporary folder holding the cluster and its socket. */
  get folderPath(): string {
    return this.folder.path;
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** What the server printed so far (for failure messages). */
  output(): string {
    return this.outputText;
  }

  /** A new, empty database on this server (each test can have its own); returns its URL. */
  async createDatabase(name: string): Promise<string> {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain database name: ${JSON.stringify(name)}`);
    const client = new Client({ connectionString: this.url() });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  /** Starts the server again on the same port and data, after stop() or kill(). */
  async resume(): Promise<void> {
    if (this.child !== null) return;
    const child = spawn(
      path.join(this.bin, 'postgres'),
      [
        '-D',
        path.join(this.folder.path, 'data'),
        '-p',
        String(this.port),
        '-k',
        this.folder.path,
        '-c',
        'listen_addresses=127.0.0.1',
        // A test cluster: durability against a power cut is not what is tested, speed is welcome.
        '-c',
        'fsync=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], ...this.account },
    );
    child.stdout?.on('data', (chunk: Buffer) => this.record(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.record(chunk));
    this.child = child;
    this.exitPromise = new Promise((resolve) => {
      child.once('exit', () => {
        if (this.child === child) this.child = null;
        process.off('exit', this.killOnParentExit);
        resolve();
      });
    });
    process.on('exit', this.killOnParentExit);
    await this.waitUntilReady();
  }

  /** A fast shutdown (SIGINT): open transactions roll back, committed ones are on disk. Safe to call twice. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child === null) return;
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exitPromise;
    clearTimeout(timer);
  }

  /** SIGKILL at once: the server goes away as a crashed one does (it recovers from its WAL on resume()). */
  async kill(): Promise<void> {
    const child = this.child;
    if (child === null) return;
    child.kill('SIGKILL');
    await this.exitPromise;
    // The postmaster's children notice the loss of their parent and exit; give them a moment before a resume.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  /**
   * SIGSTOP to the server and every process it started (one per connection): it stops answering with its connections
   * left open, as a server frozen by its host or cut off by the network does; `thaw()` (SIGCONT) brings it back.
   */
  freeze(): void {
    this.signalAll('SIGSTOP');
  }

  thaw(): void {
    this.signalAll('SIGCONT');
  }

  private signalAll(signal: 'SIGSTOP' | 'SIGCONT'): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    // Its own children only (pkill -P): the backends serving the pool's connections.
    spawnSync('pkill', [`-${signal.slice(3)}`, '-P', String(pid)]);
    process.kill(pid, signal);
  }

  /** Stops the server and deletes its folder; a port start() picked is given back. */
  async remove(): Promise<void> {
    await this.stop();
    this.folder.remove();
    if (this.portPicked) releasePort(this.port);
  }

  private async waitUntilReady(): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (this.child === null) throw new Error(`postgres exited before accepting connections:\n${this.outputText}`);
      const client = new Client({ connectionString: this.url(), connectionTimeoutMillis: 1000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    throw new Error(
      `postgres did not accept connections on port ${this.port} within ${START_TIMEOUT_MS} ms:\n${this.outputText}`,
    );
  }

  private record(chunk: Buffer): void {
    this.outputText = (this.outputText + chunk.toString('utf8')).slice(-16_384);
  }
}

/** The settings of an app whose data lives in PostgreSQL. */
export type PostgresStorage = Extract<StorageSettings, { kind: 'postgres' }>;

/** The suite's PostgreSQL and its databases (see usePostgresDatabases). */
export interface PostgresDatabases {
  /** The running server (to stop, kill or resume it in a case). */
  readonly server: PostgresServer;
  /** A fresh database, named `<prefix>_<n>`, as the settings apps open it with. */
  create(): Promise<PostgresStorage>;
}

/**
 * Inside a `describeWithPostgres` suite: one throwaway PostgreSQL for the suite (started before its first test,
 * removed after its last) and fresh databases on it. Two apps given the same database stand for two hosts.
 */
export function usePostgresDatabases(
  prefix: string,
  settings: Pick<PostgresStorage, 'poolSize' | 'statementTimeoutMs'>,
): PostgresDatabases {
  let running: PostgresServer | undefined;
  let databases = 0;
  beforeAll(async () => {
    running = await PostgresServer.start();
  }, 60_000);
  afterAll(() => running?.remove(), 30_000);
  const server = (): PostgresServer => {
    if (!running) throw new Error('usePostgresDatabases: the PostgreSQL server did not start.');
    return running;
  };
  return {
    get server() {
      return server();
    },
    create: async () => ({
      kind: 'postgres',
      url: await server().createDatabase(`${prefix}_${++databases}`),
      ...settings,
    }),
  };
}

/** Runs `use` with a client of its own on the database at `url` (to set a case up, or look at it), ended after. */
export async function withPostgresClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
