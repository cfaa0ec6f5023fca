/**
 * Instructions per `GET /slots` answer, counted by Valgrind's callgrind, for the server with tracing and metrics off,
 * with `/metrics` on, and with four ways of tracing it:
 * `npx tsx bench/instructions/count-instructions.ts [--requests=20000] [--only=off,metrics]` (Linux, with the
 * `valgrind` package; about ten minutes for the six servers). Not part of `npm run bench`, which times servers: a
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

const run = promisify(execFile);

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

const USAGE = `the arguments are --requests=<answers counted per server> and --only=<${SERVERS.map((server) => server.key).join('|')},…>`;

/** `--requests=N` (20,000 when not given) and `--only=off,metrics` (every server when not given). */
function readArguments(argv: readonly string[]): { requests: number; servers: typeof SERVERS } {
  let requests = 20_000;
  let servers = SERVERS;
  for (const argument of argv) {
    const [, name, value] = /^--(requests|only)=(.+)$/.exec(argument) ?? [];
    if (name === 'requests' && /^[1-9]\d*$/.test(value!)) requests = Number(value);
    else if (name === 'only') {
      const keys = value!.split(',');
      const unknown = keys.filter((key) => !SERVERS.some((server) => server.key === key));
      if (unknown.length > 0) throw new Error(`unknown server ${unknown.join(', ')}: ${USAGE}`);
      servers = SERVERS.filter((server) => keys.includes(server.key));
    } else throw new Error(`unknown argument ${argument}: ${USAGE}`);
  }
  return { requests, servers };
}

async function main(): Promise<void> {
  const { requests, servers: chosen } = readArguments(process.argv.slice(2));
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
  try {
    // Started together (each takes tens of seconds under callgrind), counted one after the other.
    const servers = await Promise.all(
      chosen.map(async (server, index) => {
        const outFile = path.join(work, `server-${index}.out`);
        const child = await startUnderCallgrind(work, index, outFile, server.env(receiver.url));
        started.push(child);
        // A server that ends before its count (Valgrind out of memory, a bad setting) says why.
        void child.exited.then((exit) => {
          if (stopping) return;
          process.stderr.write(
            `[instructions] ${server.name} exited (${exit.code ?? exit.signal}):\n${child.stderr().slice(-2000)}\n`,
          );
        });
        return { ...server, process: child, outFile };
      }),
    );
    const counted: { name: string; perRequest: ThreadInstructions }[] = [];
    for (const server of servers) {
      const url = `${server.process.url}/slots`;
      await send(url, 2 * requests);
      await control(server.process, '--zero');
      await send(url, requests);
      await control(server.process, '--dump');
      await waitForDump(server.outFile, 1);
      const total = await readThreadInstructions(server.outFile, 1);
      counted.push({
        name: server.name,
        perRequest: { main: total.main / requests, background: total.background / requests },
      });
      process.stderr.write(`[instructions] ${server.name}: counted\n`);
    }
    printTable(counted, requests);
  } finally {
    stopping = true;
    await Promise.all(started.map((server) => server.stop()));
    await receiver.stop();
    await rm(work, { recursive: true, force: true });
  }
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
  env: Record<string, string>,
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
      path.join(REPO_ROOT, 'dist', 'server', 'main.js'),
    ],
    env: {
      NODE_ENV: 'production',
      DATABASE_PATH: path.join(work, `server-${index}.db`),
      DEMO_PASSWORD: 'instructions-demo-password',
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

async function send(url: string, amount: number): Promise<void> {
  const result = await autocannon({ url, connections: 16, amount });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} answers other than 2xx and ${result.errors} errors`);
  }
}

function printTable(counted: readonly { name: string; perRequest: ThreadInstructions }[], requests: number): void {
  const baseline = counted[0]!.perRequest.main;
  const rows = counted.map(({ name, perRequest }) => [
    name,
    Math.round(perRequest.main).toLocaleString('en-US'),
    Math.round(perRequest.background).toLocaleString('en-US'),
    (baseline / perRequest.main).toFixed(2),
  ]);
  const header = ['`GET /slots`, server', 'main thread', 'other threads', 'off ÷ server, main thread'];
  process.stdout.write(`Instructions per answer, ${requests.toLocaleString('en-US')} answers counted per server\n\n`);
  for (const row of [header, header.map(() => '---'), ...rows]) process.stdout.write(`| ${row.join(' | ')} |\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
