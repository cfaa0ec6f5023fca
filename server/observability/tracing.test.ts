import { startTracing, tracingStarted } from './tracing';

describe('startTracing', () => {
  it('starts nothing without an OTLP endpoint', () => {
    const warnings: string[] = [];
    expect(startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, (_, message) => warnings.push(message))).toBe(false);
    expect(tracingStarted()).toBe(false);
    // Nothing set for tracing: nothing to say.
    expect(warnings).toEqual([]);
  });

  it('says which OTEL_ settings it ignores when no endpoint is set, and starts nothing', () => {
    const warned: { ignored: string[]; message: string }[] = [];
    const env = { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1', OTEL_SERVICE_NAME: 'admin' };
    expect(startTracing(env, ({ ignored }, message) => warned.push({ ignored, message }))).toBe(false);
    expect(tracingStarted()).toBe(false);
    expect(warned).toEqual([
      {
        ignored: ['OTEL_SERVICE_NAME', 'OTEL_TRACES_SAMPLER', 'OTEL_TRACES_SAMPLER_ARG'],
        message:
          'tracing is off: no OTEL_EXPORTER_OTLP_ENDPOINT (nor OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, so ' +
          "OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG are ignored. Set the collector's address " +
          'to send spans (docs/operators/traces.md#sending-traces-to-a-collector).',
      },
    ]);
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
