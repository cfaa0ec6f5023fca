import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ReportingSpanExporter } from './reporting-span-exporter';

/** An exporter whose next answers the test sets: a receiver that is down, then back. */
class ScriptedExporter implements SpanExporter {
  failing = false;
  export(_spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    resultCallback(
      this.failing
        ? { code: ExportResultCode.FAILED, error: new Error('connect ECONNREFUSED 127.0.0.1:4318') }
        : { code: ExportResultCode.SUCCESS },
    );
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const spans = (count: number) => Array.from({ length: count }, () => ({}) as ReadableSpan);

it('says once that spans are dropped while the receiver is down, and once how many when they reach it again', () => {
  const inner = new ScriptedExporter();
  const logger = { warn: jest.fn(), info: jest.fn() };
  const exporter = new ReportingSpanExporter(inner, logger, 'http://127.0.0.1:4318');
  const results: ExportResultCode[] = [];
  const send = (count: number) => exporter.export(spans(count), (result) => results.push(result.code));

  send(3);
  inner.failing = true;
  send(5);
  send(7);
  expect(logger.warn).toHaveBeenCalledTimes(1);
  expect(logger.warn.mock.calls[0]![1]).toBe(
    'tracing: spans could not be sent to http://127.0.0.1:4318 (connect ECONNREFUSED 127.0.0.1:4318); they are ' +
      'dropped until it answers again, which is logged',
  );
  inner.failing = false;
  send(2);
  send(2);
  expect(logger.info).toHaveBeenCalledTimes(1);
  expect(logger.info.mock.calls[0]![0]).toMatchObject({ droppedSpans: 12 });
  expect(logger.info.mock.calls[0]![1]).toBe('tracing: spans reach http://127.0.0.1:4318 again (12 dropped meanwhile)');
  // The SDK is told each outcome as the receiver gave it.
  expect(results).toEqual([
    ExportResultCode.SUCCESS,
    ExportResultCode.FAILED,
    ExportResultCode.FAILED,
    ExportResultCode.SUCCESS,
    ExportResultCode.SUCCESS,
  ]);
});
