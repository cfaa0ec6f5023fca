import { otlpTracesUrlOf } from './otlp-traces-url';

describe('otlpTracesUrlOf', () => {
  it('is nothing when neither endpoint is set', () => {
    expect(otlpTracesUrlOf({})).toBeNull();
    expect(otlpTracesUrlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' })).toBeNull();
  });

  it.each([
    ['http://collector:4318', 'http://collector:4318/v1/traces'],
    ['http://collector:4318/', 'http://collector:4318/v1/traces'],
    ['https://proxy.example.com/otlp', 'https://proxy.example.com/otlp/v1/traces'],
  ])('appends /v1/traces to OTEL_EXPORTER_OTLP_ENDPOINT=%s, as the exporter does', (endpoint, url) => {
    expect(otlpTracesUrlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toEqual({
      variable: 'OTEL_EXPORTER_OTLP_ENDPOINT',
      url,
    });
  });

  it('takes OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as the whole URL, before the base endpoint', () => {
    expect(
      otlpTracesUrlOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://elsewhere:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces',
      }),
    ).toEqual({ variable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', url: 'http://collector:4318/v1/traces' });
  });

  it.each(['http://collector:4318/v1/traces', 'http://collector:4318/v1/traces/'])(
    'refuses OTEL_EXPORTER_OTLP_ENDPOINT=%s, saying what to set instead, rather than post to …/v1/traces/v1/traces',
    (endpoint) => {
      expect(() => otlpTracesUrlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toThrow(
        `OTEL_EXPORTER_OTLP_ENDPOINT="${endpoint}" ends in /v1/traces, which the server appends itself: spans would go ` +
          `to ${endpoint.replace(/\/$/, '')}/v1/traces. Give the collector's address alone ` +
          `(OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318), or this whole URL as OTEL_EXPORTER_OTLP_TRACES_ENDPOINT.`,
      );
    },
  );
});
