import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from 'pino';

/**
 * An exporter that says when spans stop reaching the OTLP receiver, and when they reach it again, once each way (a
 * warning, then an info line with how many spans were dropped meanwhile): the SDK drops a batch it could not send
 * without a word, so an operator looking for traces of an incident found none and no reason. Each failed batch is
 * not logged: a receiver down for an hour would fill the log.
 */
export class ReportingSpanExporter implements SpanExporter {
  private dropped = 0;

  constructor(
    private readonly inner: SpanExporter,
    private readonly logger: Pick<Logger, 'warn' | 'info'>,
    /** Where the spans go, for the log line. */
    private readonly endpoint: string,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) {
        if (this.dropped > 0) {
          this.logger.info(
            { endpoint: this.endpoint, droppedSpans: this.dropped },
            `tracing: spans reach ${this.endpoint} again (${this.dropped} dropped meanwhile)`,
          );
          this.dropped = 0;
        }
      } else {
        if (this.dropped === 0) {
          this.logger.warn(
            { endpoint: this.endpoint, err: result.error },
            `tracing: spans could not be sent to ${this.endpoint} (${result.error?.message ?? 'failed'}); they are ` +
              'dropped until it answers again, which is logged',
          );
        }
        this.dropped += spans.length;
      }
      resultCallback(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
