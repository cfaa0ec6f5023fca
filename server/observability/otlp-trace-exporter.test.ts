/**
 * The server's OTLP exporter against a real OTLP/HTTP receiver: batches encoded here reach it from the export thread,
 * in both encodings, where the given environment says; its failures come back as the SDK's exporters give them; a
 * lost thread fails what waited on it and the next batch starts another; the thread holds a process open only while
 * a batch waits.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { startOtlpReceiver, type OtlpReceiver } from '../../testing/system/otlp-receiver';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { OtlpTraceExporter, spawnExportThread } from './otlp-trace-exporter';
import { OTLP_ENCODINGS } from './otlp-trace-protocol';

jest.setTimeout(30_000);

/** Finished spans named `names`, as the batch processor hands them to an exporter. */
function finishedSpans(...names: string[]): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] }).getTracer('test');
  for (const name of names) tracer.startSpan(name).end();
  return memory.getFinishedSpans();
}

function send(exporter: OtlpTraceExporter, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

let receiver: OtlpReceiver;
let temp: TempDir;
const exporters: OtlpTraceExporter[] = [];

function exporterTo(protocol: 'http/json' | 'http/protobuf', env: NodeJS.ProcessEnv): OtlpTraceExporter {
  const exporter = new OtlpTraceExporter(protocol, env);
  exporters.push(exporter);
  return exporter;
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  temp = makeTempDir('slots-otlp-exporter-');
});

afterEach(async () => {
  await Promise.all(exporters.splice(0).map((exporter) => exporter.shutdown()));
});

afterAll(async () => {
  temp.remove();
  await receiver.close();
});

it.each([
  ['http/json', 'application/json'],
  ['http/protobuf', 'application/x-protobuf'],
] as const)('sends each batch in %s to the endpoint of the environment it is given', async (protocol, contentType) => {
  const exporter = exporterTo(protocol, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
  const before = receiver.exports.length;
  expect(await send(exporter, finishedSpans(`${protocol} one`, `${protocol} two`))).toEqual({
    code: ExportResultCode.SUCCESS,
  });
  expect(receiver.exports.slice(before)).toEqual([{ path: '/v1/traces', contentType }]);
  expect(receiver.spans.map((span) => span.name)).toEqual(
    expect.arrayContaining([`${protocol} one`, `${protocol} two`]),
  );
});

it('moves each batch it encoded to the thread, not a copy', async () => {
  const encode = jest.spyOn(OTLP_ENCODINGS['http/protobuf'], 'encode');
  try {
    const exporter = exporterTo('http/protobuf', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    expect(await send(exporter, finishedSpans('moved'))).toEqual({ code: ExportResultCode.SUCCESS });
    const encoded = encode.mock.results[0]?.value as Uint8Array;
    // Its memory went with the message: what is left here is detached.
    expect(encoded.byteLength).toBe(0);
    expect(receiver.spans.map((span) => span.name)).toContain('moved');
  } finally {
    encode.mockRestore();
  }
});

it('fails a batch it cannot encode, saying why, and sends the next', async () => {
  const exporter = exporterTo('http/protobuf', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
  const [span] = finishedSpans('unencodable');
  const broken = Object.defineProperty({ ...span!, spanContext: () => span!.spanContext() }, 'attributes', {
    get: () => {
      throw new Error('attributes gone');
    },
  }) as ReadableSpan;
  const failed = await send(exporter, [broken]);
  expect(failed.code).toBe(ExportResultCode.FAILED);
  expect(failed.error?.message).toBe('the spans could not be encoded: attributes gone');
  expect(await send(exporter, finishedSpans('encodable'))).toEqual({ code: ExportResultCode.SUCCESS });
  expect(receiver.spans.map((received) => received.name)).toContain('encodable');
});

it('gives a failed send as the SDK does: its message, and the HTTP status as code', async () => {
  const exporter = exporterTo('http/json', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/elsewhere` });
  const result = await send(exporter, finishedSpans('refused'));
  expect(result.code).toBe(ExportResultCode.FAILED);
  expect(receiver.exports.at(-1)?.path).toBe('/elsewhere');
  expect(result.error).toMatchObject({ code: 404, message: expect.stringContaining('Not Found') });
  // The stack is the thread's, where the SDK made the error.
  expect(result.error?.stack).toMatch(/otlp-exporter-base/);

  // The SDK retries a refused connection until its timeout, which the environment sets too.
  const unreachable = exporterTo('http/json', {
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1',
    OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '1000',
  });
  const started = Date.now();
  const refused = await send(unreachable, finishedSpans('unreachable'));
  expect(refused.code).toBe(ExportResultCode.FAILED);
  expect(refused.error?.message).toMatch(/ECONNREFUSED/);
  expect(Date.now() - started).toBeLessThan(5_000);
});

it('flushes what it was handed, and fails batches after its shutdown (a flush during it waits for it)', async () => {
  // A receiver that answers after 300 ms: the flush must wait for it.
  const slow = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'), 300));
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  try {
    const exporter = exporterTo('http/json', {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(slow.address() as AddressInfo).port}`,
    });
    const results: ExportResult[] = [];
    exporter.export(finishedSpans('flushed'), (result) => results.push(result));
    await exporter.forceFlush();
    expect(results).toEqual([{ code: ExportResultCode.SUCCESS }]);
    exporter.export(finishedSpans('flushed at the shutdown'), (result) => results.push(result));
    await Promise.all([exporter.shutdown(), exporter.forceFlush()]);
    expect(results).toEqual([{ code: ExportResultCode.SUCCESS }, { code: ExportResultCode.SUCCESS }]);
    await exporter.forceFlush();
    const late = await send(exporter, finishedSpans('late'));
    expect(late.code).toBe(ExportResultCode.FAILED);
    expect(late.error?.message).toBe('the exporter is shut down');
  } finally {
    slow.closeAllConnections();
    await new Promise((resolve) => slow.close(resolve));
  }
});

it('fails what waited on a thread that died, and starts another for the next batch', async () => {
  // A receiver that never answers: the batch is still waiting when the thread dies.
  const silent = http.createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const exporter = exporterTo('http/json', {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      OTEL_EXPORTER_OTLP_TIMEOUT: '1000',
    });
    const waiting = send(exporter, finishedSpans('lost'));
    // The thread is private: nothing outside the exporter should stop it, which is what this test does.
    const thread = (exporter as unknown as { thread: Worker }).thread;
    await thread.terminate();
    const lost = await waiting;
    expect(lost.code).toBe(ExportResultCode.FAILED);
    expect(lost.error?.message).toMatch(/the OTLP export thread stopped/);

    // A new thread takes the next batch (which waits as the first did, and fails at the shutdown).
    const next = send(exporter, finishedSpans('next'));
    const second = (exporter as unknown as { thread: Worker | undefined }).thread;
    expect(second).toBeDefined();
    expect(second).not.toBe(thread);
    await exporter.shutdown();
    expect((await next).code).toBe(ExportResultCode.FAILED);
  } finally {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});

it('starts threads that keep dying before they answer after growing pauses, failing the batches meanwhile', async () => {
  let now = 5_000;
  // Each start takes the next way a thread begins: one that cannot load, or the real one.
  const starts: Array<'broken' | 'real'> = ['broken', 'broken', 'broken', 'broken', 'real', 'broken'];
  let started = 0;
  const exporter = new OtlpTraceExporter(
    'http/json',
    { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    (settings) =>
      starts[started++] === 'real'
        ? spawnExportThread(settings)
        : new Worker('throw new Error("the thread cannot load")', { eval: true }),
    () => now,
  );
  exporters.push(exporter);
  const attempt = async (name: string) => (await send(exporter, finishedSpans(name))).error?.message;

  expect(await attempt('one')).toMatch(/the thread cannot load/);
  // Lost once: the next batch starts another at once.
  expect(await attempt('two')).toMatch(/the thread cannot load/);
  expect(started).toBe(2);
  // Lost twice in a row: a second's pause, in which batches fail without a start.
  expect(await attempt('paused')).toBe(
    'the OTLP export thread stopped 2 times in a row (last: the thread cannot load); the next starts in 1 s',
  );
  expect(started).toBe(2);
  now += 1_000;
  expect(await attempt('three')).toMatch(/the thread cannot load/);
  expect(started).toBe(3);
  // Three in a row: two seconds.
  now += 1_999;
  expect(await attempt('paused again')).toMatch(/3 times in a row/);
  now += 1;
  expect(await attempt('four')).toMatch(/the thread cannot load/);
  expect(started).toBe(4);

  // A thread that answers: the count starts again, so the next lost is replaced at once.
  now += 4_000;
  expect(await send(exporter, finishedSpans('sent'))).toEqual({ code: ExportResultCode.SUCCESS });
  expect(started).toBe(5);
  const working = (exporter as unknown as { thread: Worker }).thread;
  expect(working.resourceLimits?.maxOldGenerationSizeMb).toBe(256);
  await working.terminate();
  expect(await attempt('after')).toMatch(/the thread cannot load/);
  expect(started).toBe(6);
});

it('starts its thread before any batch when asked, and the first batch goes through it; none after a shutdown', async () => {
  let started = 0;
  const exporter = new OtlpTraceExporter('http/json', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, (settings) => {
    started++;
    return spawnExportThread(settings);
  });
  exporters.push(exporter);
  exporter.startThreadNow();
  expect(started).toBe(1);
  const early = (exporter as unknown as { thread: Worker | undefined }).thread;
  expect(early).toBeDefined();
  // Asked again, with a thread running: the same thread.
  exporter.startThreadNow();
  expect(await send(exporter, finishedSpans('through the early thread'))).toEqual({ code: ExportResultCode.SUCCESS });
  expect(started).toBe(1);
  expect((exporter as unknown as { thread: Worker | undefined }).thread).toBe(early);

  await exporter.shutdown();
  exporter.startThreadNow();
  expect(started).toBe(1);
});

it('counts a thread that cannot even be made as one lost at once, started early or for a batch', async () => {
  let made = 0;
  const exporter = new OtlpTraceExporter(
    'http/json',
    { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    () => {
      made++;
      throw new RangeError('resource limits refused');
    },
    () => 0,
  );
  exporters.push(exporter);
  // Lost once: the next is made at once, for the batch.
  exporter.startThreadNow();
  expect(made).toBe(1);
  const first = await send(exporter, finishedSpans('one'));
  expect(first.code).toBe(ExportResultCode.FAILED);
  expect(first.error?.message).toMatch(/resource limits refused/);
  expect(made).toBe(2);
  // Lost twice in a row: in the pause, neither an early start nor a batch makes one.
  exporter.startThreadNow();
  expect((await send(exporter, finishedSpans('paused'))).error?.message).toMatch(/2 times in a row/);
  expect(made).toBe(2);
});

it("holds a process open while a batch waits, and not after; runs none of the process's preloads", async () => {
  // A process that hands one batch over and does nothing else: it must live until the answer, then end by itself.
  // Its preloads say which thread runs them (as exit-with-parent.ts, they belong to the process, not to the thread),
  // given on the command line and in NODE_OPTIONS, which the process's environment, the exporter's, carries.
  // TypeScript through tsx's CommonJS loader, as the export thread loads it.
  const script = `
    require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();
    const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
    const { OtlpTraceExporter } = require(${JSON.stringify(path.join(__dirname, 'otlp-trace-exporter.ts'))});
    const memory = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] }).getTracer('child');
    tracer.startSpan('from the child').end();
    new OtlpTraceExporter('http/json', { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: process.argv[1] })
      .export(memory.getFinishedSpans(), (result) => console.log('result', result.code));
  `;
  const preloads = ['command line', 'NODE_OPTIONS'].map((where) => {
    const file = path.join(temp.path, `${where.replace(' ', '-')}.js`);
    // tsx's loader may have a thread of its own: the export thread is the one started with a protocol.
    fs.writeFileSync(
      file,
      `const { isMainThread, workerData } = require('node:worker_threads');\n` +
        `if (isMainThread) console.log('${where} preload in the main thread');\n` +
        `else if (workerData?.protocol) console.log('${where} preload in the export thread');\n`,
    );
    return file;
  });
  // Not spawnSync: the receiver answering the child runs in this process.
  const child = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const run = execFile(
      process.execPath,
      ['--require', preloads[0]!, '-e', script, receiver.url],
      {
        cwd: path.join(__dirname, '..', '..'),
        env: { ...process.env, NODE_OPTIONS: `--require ${preloads[1]!}` },
        timeout: 20_000,
      },
      (_error, stdout, stderr) => resolve({ code: run.exitCode, stdout, stderr }),
    );
  });
  expect({ ...child, stdout: child.stdout.split('\n').sort() }).toEqual({
    code: 0,
    stdout: [
      '',
      'NODE_OPTIONS preload in the main thread',
      'command line preload in the main thread',
      `result ${ExportResultCode.SUCCESS}`,
    ],
    stderr: '',
  });
});
