/**
 * Instructions per `GET /slots` answer, counted by Valgrind's callgrind, for the server with tracing and metrics off,
 * with `/metrics` on, and with four ways of tracing it; and per signed-in `GET /meta` answer on SQLite sessions, for
 * the server against the bench's bare express-session + passport route (bench/baselines/session-meta-server.ts):
 * `npx tsx bench/instructions/count-instructions.ts [--requests=20000] [--only=off,metrics,meta]` (Linux, with the
 * `valgrind` package; at 10,000 answers, two to three minutes a `/slots` server and a quarter of an hour for `/meta`,
 * whose answers cost fifteen times as much). Not part of `npm run bench`, which times servers: a
 * count of instructions does not move with the machine's load, where CPU time per answer moves by 5 to 10 % between
 * two runs on a shared machine, more than the costs the tracing work prices (docs/operators/performance.md, "Seventh
 * round").
 *
 * Each server is the compiled one (`dist/server/main.js`, compiled first, with the flags it ships with) on its own
 * SQLite file, under callgrind with one output file per thread. It answers 2 x N requests to warm up, then its
 * counters are zeroed, it answers N more and callgrind dumps them: the main thread (JavaScript and the event loop)
 * apart from the others (V8's background compilation and garbage collection, and a traced server's OTLP export
 * thread). The main thread's count is the one to compare: under callgrind the process runs some fifty times slower,
 * and V8 decides some collections and compilations by time (its memory reducer starts full collections when it sees
 * little allocation per second), so the background threads of a traced server do work they would not do at full
 * speed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { compileServer } from '../../scripts/compile-server';
import { SERVER_NODE_FLAGS } from '../../server/process/server-node-flags';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { startServerProcess, type ServerProcess } from '../../testing/system/server-process';
import { readThreadInstructions, waitForDump, type ThreadInstructions } from '../harness/callgrind-dump';
import { startBenchProcess } from '../harness/bench-process';
import { captureBody } from '../harness/captured-body';
import { compiledEntry } from '../harness/compiled-entry';
import { signIn } from '../../tests/multi-instance/support/session-client';
import { SESSION_BASELINE_ENTRY, signInToSessionBaseline } from '../harness/baseline-processes';

const run = promisify(execFile);

/** The compiled server every `GET /slots` count and the `GET /meta` count run. */
const SERVER_SCRIPT = path.join(REPO_ROOT, 'dist', 'server', 'main.js');
/** The demo data's administrator, signed in for `GET /meta`. */
const DEMO_USERNAME = 'admin';
const DEMO_PASSWORD = 'instructions-demo-password';

/**
 * The servers counted: tracing and metrics off (the baseline), `/metrics` on (each answer timed into its histogram),
 * and the sampling the traces guide discusses, sent as protobuf, then every request sent as JSON (the default
 * encoding).
 */
const SERVERS: readonly { key: string; name: string; env: (receiver: string) => Record<string, string> }[] = [
  { key: 'off', name: 'tracing off', env: () => ({}) },
  {
    key: 'metrics',
    name: '/metrics on',
    env: () => ({ METRICS_TOKEN: 'instructions-metrics-token-0123456789' }),
  },
  { key: 'sampled-out', name: 'traced, every request sampled out', env: (receiver) => tracing(receiver, '0') },
  { key: 'one-in-ten', name: 'traced, one request in ten sampled', env: (receiver) => tracing(receiver, '0.1') },
  { key: 'every', name: 'traced, every request sampled', env: (receiver) => tracing(receiver, '1') },
  {
    key: 'every-json',
    name: 'traced, every request sampled, sent as JSON',
    env: (receiver) => ({ ...tracing(receiver, '1'), OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }),
  },
];

function tracing(receiver: string, ratio: string): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: ratio,
  };
}

/**
 * `GET /meta` counted too: the server signed in on its SQLite file, and the bare session route on its own (the
 * bench's `/meta` baseline) sending the server's bytes. Timed, that ratio moves between runs on this two-core host
 * by more than the goal's margin (0.81 to 1.20 in runs of one build): counted, it does not.
 */
const META = 'meta';
const KEYS = [...SERVERS.map((server) => server.key), META];

const USAGE = `the arguments are --requests=<answers counted per server> and --only=<${KEYS.join('|')},…>`;

/** `--requests=N` (20,000 when not given) and `--only=off,metrics,meta` (everything when not given). */
function readArguments(argv: readonly string[]): { requests: number; servers: typeof SERVERS; meta: boolean } {
  let requests = 20_000;
  let keys = KEYS;
  for (const argument of argv) {
    const [, name, value] = /^--(requests|only)=(.+)$/.exec(argument) ?? [];
    if (name === 'requests' && /^[1-9]\d*$/.test(value!)) requests = Number(value);
    else if (name === 'only') {
      keys = value!.split(',');
      const unknown = keys.filter((key) => !KEYS.includes(key));
      if (unknown.length > 0) throw new Error(`unknown server ${unknown.join(', ')}: ${USAGE}`);
    } else throw new Error(`unknown argument ${argument}: ${USAGE}`);
  }
  return { requests, servers: SERVERS.filter((server) => keys.includes(server.key)), meta: keys.includes(META) };
}

/** A server counted: its process under callgrind and the file callgrind dumps it into. */
interface Counted {
  process: ServerProcess;
  outFile: string;
}

/** Instructions per answer of `GET <path>` on a server, after 2 x `requests` answers of warm-up. */
async function countAnswers(
  server: Counted,
  path: string,
  requests: number,
  headers: Record<string, string> = {},
): Promise<ThreadInstructions> {
  const url = `${server.process.url}${path}`;
  await send(url, 2 * requests, headers);
  await control(server.process, '--zero');
  await send(url, requests, headers);
  await control(server.process, '--dump');
  await waitForDump(server.outFile, 1);
  const total = await readThreadInstructions(server.outFile, 1);
  return { main: total.main / requests, background: total.background / requests };
}

async function main(): Promise<void> {
  const { requests, servers: chosen, meta } = readArguments(process.argv.slice(2));
  await assertValgrind();
  const work = await mkdtemp(path.join(os.tmpdir(), 'slots-instructions-'));
  await compileServer({ root: REPO_ROOT, outDir: path.join(REPO_ROOT, 'dist') });
  const receiver = await startBenchProcess({
    name: 'OTLP receiver',
    entry: 'bench/servers/discarding-otlp-receiver.ts',
    env: {},
    logFile: path.join(work, 'receiver.log'),
  });
  const started: ServerProcess[] = [];
  let stopping = false;
  let index = 0;
  /** A server started under callgrind; one that ends before its count (out of memory, a bad setting) says why. */
  const start = async (name: string, script: string, env: Record<string, string | undefined>): Promise<Counted> => {
    const outFile = path.join(work, `server-${index}.out`);
    const child = await startUnderCallgrind(work, index++, outFile, script, env);
    started.push(child);
    void child.exited.then((exit) => {
      if (stopping) return;
      process.stderr.write(
        `[instructions] ${name} exited (${exit.code ?? exit.signal}):\n${child.stderr().slice(-2000)}\n`,
      );
    });
    return { process: child, outFile };
  };
  try {
    // Started together (each takes tens of seconds under callgrind), counted one after the other.
    const [servers, metaServer] = await Promise.all([
      Promise.all(
        chosen.map(async (server) => ({
          ...server,
          ...(await start(server.name, SERVER_SCRIPT, server.env(receiver.url))),
        })),
      ),
      meta ? start('the server for GET /meta', SERVER_SCRIPT, {}) : null,
    ]);
    if (servers.length > 0) {
      const counted: { name: string; perRequest: ThreadInstructions }[] = [];
      for (const server of servers) {
        counted.push({ name: server.name, perRequest: await countAnswers(server, '/slots', requests) });
        process.stderr.write(`[instructions] ${server.name}: counted\n`);
      }
      printTable('`GET /slots`, server', 'off ÷ server, main thread', counted, requests);
    }
    if (metaServer) {
      const counted = await countMeta(work, metaServer, requests, start);
      printTable('`GET /meta` signed in, SQLite sessions', 'bare route ÷ server, main thread', counted, requests);
    }
  } finally {
    stopping = true;
    await Promise.all(started.map((server) => server.stop()));
    await receiver.stop();
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * `GET /meta` signed in: the server (already started), then the bare session route sending the bytes the server
 * answered, on a SQLite file of its own with the project's session store, as the bench's `/meta` figure compares
 * them. The baseline runs with the server's Node flags, so that only what each does differs.
 */
async function countMeta(
  work: string,
  server: Counted,
  requests: number,
  start: (name: string, script: string, env: Record<string, string | undefined>) => Promise<Counted>,
): Promise<{ name: string; perRequest: ThreadInstructions }[]> {
  const cookie = await signIn(server.process.url, DEMO_USERNAME, DEMO_PASSWORD);
  const body = await captureBody(`${server.process.url}/meta`, { Cookie: cookie }, path.join(work, 'meta-body.json'));
  const { file } = await compiledEntry(SESSION_BASELINE_ENTRY);
  // On a SQLite file of its own (startUnderCallgrind gives each process one).
  const baseline = await start('the bare session route', file, { SESSION_STORE: 'sqlite', BODY_FILE: body.file });
  const baselineCookie = await signInToSessionBaseline(baseline.process);
  const bare = await countAnswers(baseline, '/meta', requests, { Cookie: baselineCookie });
  process.stderr.write('[instructions] the bare session route: counted\n');
  const product = await countAnswers(server, '/meta', requests, { Cookie: cookie });
  process.stderr.write('[instructions] the server on GET /meta: counted\n');
  return [
    { name: "express-session + passport, constant body (the bench's baseline)", perRequest: bare },
    { name: 'the server', perRequest: product },
  ];
}

/**
 * `callgrind_control <option> <pid>`. It finds the server's Valgrind by pipes named after the user and the HOST
 * variable, and the helper that started the server set HOST to the address it listens on: the same here.
 */
async function control(server: ServerProcess, option: '--zero' | '--dump'): Promise<void> {
  await run('callgrind_control', [option, String(server.pid)], { env: { ...process.env, HOST: server.host } });
}

async function assertValgrind(): Promise<void> {
  try {
    await run('valgrind', ['--version']);
  } catch {
    throw new Error('valgrind is not installed (Debian: apt-get install valgrind)');
  }
}

function startUnderCallgrind(
  work: string,
  index: number,
  outFile: string,
  script: string,
  env: Record<string, string | undefined>,
): Promise<ServerProcess> {
  return startServerProcess({
    name: `server ${index} under callgrind`,
    command: 'valgrind',
    args: [
      '--tool=callgrind',
      '--separate-threads=yes',
      // V8 writes and rewrites machine code in anonymous memory: Valgrind must notice it changed.
      '--smc-check=all-non-file',
      `--callgrind-out-file=${outFile}`,
      process.execPath,
      ...SERVER_NODE_FLAGS,
      script,
    ],
    env: {
      NODE_ENV: 'production',
      DATABASE_PATH: path.join(work, `server-${index}.db`),
      DEMO_PASSWORD,
      SESSION_SECRET: 'instructions-session-secret-0123456789abcdef',
      LOGIN_RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      REDIS_URL: undefined,
      REMOTES_CONFIG: undefined,
      METRICS_TOKEN: undefined,
      ...env,
    },
    readyTimeoutMs: 300_000,
  });
}

async function send(url: string, amount: number, headers: Record<string, string> = {}): Promise<void> {
  const result = await autocannon({ url, connections: 16, amount, headers });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} answers other than 2xx and ${result.errors} errors`);
  }
}

/** A table of counts, each against the first's main thread. */
function printTable(
  title: string,
  ratio: string,
  counted: readonly { name: string; perRequest: ThreadInstructions }[],
  requests: number,
): void {
  const baseline = counted[0]!.perRequest.main;
  const rows = counted.map(({ name, perRequest }) => [
    name,
    Math.round(perRequest.main).toLocaleString('en-US'),
    Math.round(perRequest.background).toLocaleString('en-US'),
    (baseline / perRequest.main).toFixed(2),
  ]);
  const header = [title, 'main thread', 'other threads', ratio];
  process.stdout.write(`Instructions per answer, ${requests.toLocaleString('en-US')} answers counted per server\n\n`);
  for (const row of [header, header.map(() => '---'), ...rows]) process.stdout.write(`| ${row.join(' | ')} |\n`);
  process.stdout.write('\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
