import path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ExportThreadData, ExportThreadError, ExportThreadReply, ExportThreadRequest } from './otlp-export-thread';
import { OTLP_ENCODINGS, type OtlpTraceProtocol } from './otlp-trace-protocol';

/**
 * The OTLP/HTTP span exporter of this server: each batch is encoded here (spans live on this thread), and sent by a
 * thread of its own (otlp-export-thread.ts) with the SDK's OTLP/HTTP delegate, which reads the OTEL_EXPORTER_OTLP_*
 * variables of `env` as the SDK's exporters do. The exporter's requests then no longer share Node's HTTP code with the
 * server's answers, which cost every answer of a traced server (docs/operators/performance.md, "Eighth round").
 *
 * The SDK starts the thread with itself (startThreadNow), not with the first batch: a shutdown's last spans then wait
 * for no thread to load (a few hundred milliseconds, more on a busy host, out of the two seconds the shutdown gives
 * them). It holds the process open only while a batch, a flush or a shutdown waits for it. Should it die, what waited on it fails with its error (the
 * spans are dropped, as when the receiver is down, and ReportingSpanExporter says so) and the next batch starts a new
 * one; should threads keep dying before they answer anything (a thread that cannot load, its memory limit reached at
 * once), each next one waits longer before it is started (RESTART_PAUSES), and the batches meanwhile fail at once:
 * starting a thread costs tens of milliseconds of CPU and about 20 MiB, which a busy server would otherwise pay for
 * every batch.
 */
export class OtlpTraceExporter implements SpanExporter {
  private thread: Worker | undefined;
  /** Threads lost in a row, none of them having answered since; and when the next may start. */
  private lostInARow = 0;
  private lastLoss = '';
  private noStartBefore = 0;
  private nextId = 0;
  /** What waits for the thread's answer, by request id. */
  private readonly waiting = new Map<number, (reply: ExportThreadReply) => void>();
  /** The shutdown, once asked for: a flush asked during or after it waits for it. */
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly protocol: OtlpTraceProtocol,
    private readonly env: NodeJS.ProcessEnv,
    /**
     * The thread's start and the clock of its pauses, in milliseconds (the performance clock: the wall clock may be set
     * back): the tests give their own.
     */
    private readonly start: typeof spawnExportThread = spawnExportThread,
    private readonly now: () => number = () => performance.now(),
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    if (this.stopping !== undefined) {
      resultCallback({ code: ExportResultCode.FAILED, error: new Error('the exporter is shut down') });
      return;
    }
    // In a pause between threads that keep dying: failed before any encoding.
    const paused = this.thread === undefined ? this.noStartBefore - this.now() : 0;
    if (paused > 0) {
      const message =
        `the OTLP export thread stopped ${this.lostInARow} times in a row (last: ${this.lastLoss}); ` +
        `the next starts in ${Math.ceil(paused / 1000)} s`;
      resultCallback({ code: ExportResultCode.FAILED, error: new Error(message) });
      return;
    }
    let bytes: Uint8Array;
    try {
      bytes = OTLP_ENCODINGS[this.protocol].encode(spans);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      resultCallback({ code: ExportResultCode.FAILED, error: new Error(`the spans could not be encoded: ${reason}`) });
      return;
    }
    // The batch's memory is its own (OtlpTraceEncoding.encode): moved to the thread, not copied.
    this.ask({ kind: 'export', id: 0, batch: { bytes, spans: spans.length } }, [bytes.buffer as ArrayBuffer], (reply) =>
      resultCallback(
        reply.kind === 'failed'
          ? { code: ExportResultCode.FAILED, error: errorOf(reply.error) }
          : { code: ExportResultCode.SUCCESS },
      ),
    );
  }

  /**
   * Starts the thread before any batch, unless one runs, a pause between threads that keep dying is on, or the
   * exporter is shut down. A thread that cannot be made counts as one lost, as with a batch.
   */
  startThreadNow(): void {
    if (this.thread !== undefined || this.stopping !== undefined || this.noStartBefore > this.now()) return;
    this.threadOrLoss();
  }

  /** Resolves once every batch handed over so far has been sent, or has failed. */
  forceFlush(): Promise<void> {
    if (this.stopping !== undefined) return this.stopping;
    return this.thread === undefined ? Promise.resolve() : this.askDone('flush');
  }

  /** Waits for the batches handed over, then stops the thread; later batches fail. */
  shutdown(): Promise<void> {
    return (this.stopping ??= this.stop());
  }

  private async stop(): Promise<void> {
    const thread = this.thread;
    if (thread === undefined) return;
    await this.askDone('shutdown').catch(() => undefined);
    this.thread = undefined;
    await thread.terminate();
    // Nothing is asked after the shutdown (the flushes wait for it), but say so rather than leave a caller waiting.
    this.failWaiting(new Error('the exporter is shut down'));
  }

  private askDone(kind: 'flush' | 'shutdown'): Promise<void> {
    return new Promise((resolve, reject) =>
      this.ask({ kind, id: 0 }, [], (reply) => (reply.kind === 'failed' ? reject(errorOf(reply.error)) : resolve())),
    );
  }

  /**
   * Sends `request` (under a fresh id) to the thread, started if need be, the memory in `handedOver` moved rather
   * than copied; `onReply` gets its answer.
   */
  private ask(
    request: ExportThreadRequest,
    handedOver: ArrayBuffer[],
    onReply: (reply: ExportThreadReply) => void,
  ): void {
    const thread = this.threadOrLoss();
    if (thread instanceof Error) {
      onReply({ kind: 'failed', id: 0, error: { name: thread.name, message: thread.message } });
      return;
    }
    const id = ++this.nextId;
    if (this.waiting.size === 0) thread.ref();
    this.waiting.set(id, onReply);
    thread.postMessage({ ...request, id } satisfies ExportThreadRequest, handedOver);
  }

  /** The thread running, else a new one; the error of a thread that cannot even be made, counted as lost. */
  private threadOrLoss(): Worker | Error {
    try {
      return (this.thread ??= this.startThread());
    } catch (error) {
      // Its options refused: lost as a thread that died at once.
      const refused = error instanceof Error ? error : new Error(String(error));
      this.lose(refused);
      return refused;
    }
  }

  private startThread(): Worker {
    const data: ExportThreadData = { protocol: this.protocol };
    // The settings without NODE_OPTIONS: a thread given an environment applies the Node options in it (below).
    const env = { ...this.env };
    delete env.NODE_OPTIONS;
    const thread = this.start({ workerData: data, env, resourceLimits: EXPORT_THREAD_LIMITS });
    thread.on('message', (reply: ExportThreadReply) => this.answer(reply));
    const lost = (error: Error) => {
      if (this.thread !== thread) return;
      this.thread = undefined;
      this.lose(error);
      this.failWaiting(error);
    };
    thread.on('error', lost);
    thread.on('exit', (code) => lost(new Error(`the OTLP export thread stopped (exit code ${code})`)));
    thread.unref();
    return thread;
  }

  /** One more thread lost in a row: when the next may start. */
  private lose(error: Error): void {
    this.lostInARow++;
    this.lastLoss = error.message;
    this.noStartBefore = this.now() + RESTART_PAUSES[Math.min(this.lostInARow, RESTART_PAUSES.length) - 1]!;
  }

  private failWaiting(error: Error): void {
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const [id, onReply] of waiting) {
      onReply({ kind: 'failed', id, error: { name: error.name, message: error.message } });
    }
  }

  private answer(reply: ExportThreadReply): void {
    // A thread that answers works: the next one lost is started again at once.
    this.lostInARow = 0;
    const onReply = this.waiting.get(reply.id);
    if (onReply === undefined) return;
    this.waiting.delete(reply.id);
    if (this.waiting.size === 0) this.thread?.unref();
    onReply(reply);
  }
}

/**
 * How long the next thread waits after threads lost in a row (the first, the second…, then the last pause for each):
 * none after one, which a thread that worked may be (terminated, its memory limit reached by a burst).
 */
const RESTART_PAUSES: readonly number[] = [0, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000];

/**
 * The thread's memory: its batches (up to 30 sent at once by the SDK's delegate, each a few MB at most) fit many
 * times over; a thread that outgrows it dies with ERR_WORKER_OUT_OF_MEMORY rather than taking the server's memory.
 */
const EXPORT_THREAD_LIMITS = { maxOldGenerationSizeMb: 256 };

/**
 * The thread's error as an Error again, with its stack there, and as the SDK's exporters give it: the HTTP status as
 * `code`, the collector's answer as `data`.
 */
function errorOf(error: ExportThreadError): Error {
  return Object.assign(new Error(error.message), error);
}

/**
 * The export thread: compiled (dist/), its JavaScript beside this file; from source (tsx, Jest), its TypeScript,
 * compiled as it loads by tsx's loader for CommonJS. None of the process's Node options: a thread inherits them, and
 * with them the modules they preload, such as exit-with-parent.ts, which would then signal the process a second time
 * (NODE_OPTIONS, which would bring them back, is left out of its environment by the caller).
 */
export function spawnExportThread(settings: {
  workerData: ExportThreadData;
  env: NodeJS.ProcessEnv;
  resourceLimits: ResourceLimits;
}): Worker {
  const options = { ...settings, execArgv: [] };
  if (__filename.endsWith('.js')) return new Worker(path.join(__dirname, 'otlp-export-thread.js'), options);
  const loader = JSON.stringify(require.resolve('tsx/cjs/api'));
  const source = JSON.stringify(path.join(__dirname, 'otlp-export-thread.ts'));
  return new Worker(`require(${loader}).register();\nrequire(${source});`, { ...options, eval: true });
}
