import { startTracing, tracingStarted } from './tracing';

describe('startTracing', () => {
  it('starts nothing without an OTLP endpoint', () => {
    expect(startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBe(false);
    expect(tracingStarted()).toBe(false);
  });

  it.each([
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'notaurl'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'ftp://collector/v1/traces'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'http://'],
  ])('refuses %s=%s, naming the setting, rather than send to a default collector', (variable, value) => {
    expect(() => startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', [variable]: value })).toThrow(
      `${variable} must be an http:// or https:// address, like http://collector:4318 (got "${value}").`,
    );
    expect(tracingStarted()).toBe(false);
  });

  it('refuses a base endpoint ending in /v1/traces, which the exporter would post to …/v1/traces/v1/traces', () => {
    expect(() => startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/v1/traces' })).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT="http://collector:4318/v1/traces" ends in /v1/traces',
    );
    expect(tracingStarted()).toBe(false);
  });
});
