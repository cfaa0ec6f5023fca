import { TRACE_SAMPLERS, traceSamplerOf } from './trace-sampler-setting';

describe('traceSamplerOf', () => {
  it('reads the sampler and its ratio as the specification says, blanks as unset', () => {
    expect(traceSamplerOf({})).toEqual({ name: 'parentbased_always_on', ratio: 1 });
    expect(traceSamplerOf({ OTEL_TRACES_SAMPLER: '  ' })).toEqual({ name: 'parentbased_always_on', ratio: 1 });
    expect(traceSamplerOf({ OTEL_TRACES_SAMPLER: 'parentbased_always_off ' })).toEqual({
      name: 'parentbased_always_off',
      ratio: 0,
    });
    expect(traceSamplerOf({ OTEL_TRACES_SAMPLER: 'always_on', OTEL_TRACES_SAMPLER_ARG: 'ignored' })).toEqual({
      name: 'always_on',
      ratio: 1,
    });
    for (const name of ['traceidratio', 'parentbased_traceidratio']) {
      expect(traceSamplerOf({ OTEL_TRACES_SAMPLER: name, OTEL_TRACES_SAMPLER_ARG: ' 0.1 ' })).toEqual({
        name,
        ratio: 0.1,
      });
      expect(traceSamplerOf({ OTEL_TRACES_SAMPLER: name, OTEL_TRACES_SAMPLER_ARG: '0' })).toEqual({ name, ratio: 0 });
      // No ratio: every new trace, as the specification says.
      expect(traceSamplerOf({ OTEL_TRACES_SAMPLER: name, OTEL_TRACES_SAMPLER_ARG: '' })).toEqual({ name, ratio: 1 });
    }
  });

  it.each(['parentbased_traceid_ratio', 'sometimes', 'jaeger_remote', 'ALWAYS_ON'])(
    'refuses the sampler %s, naming the variable and the samplers there are, rather than trace every request',
    (name) => {
      expect(() => traceSamplerOf({ OTEL_TRACES_SAMPLER: name })).toThrow(
        `OTEL_TRACES_SAMPLER="${name}" is not valid: expected one of ${TRACE_SAMPLERS.join(', ')}.`,
      );
    },
  );

  it.each(['0,1', 'a tenth', '-0.1', '2', 'Infinity'])(
    'refuses the ratio %s, naming the variable, rather than trace every request',
    (arg) => {
      expect(() =>
        traceSamplerOf({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: arg }),
      ).toThrow(
        `OTEL_TRACES_SAMPLER_ARG="${arg}" is not valid: expected the share of requests traced, a number from 0 to 1 ` +
          'with a dot: 0.1 for one in ten.',
      );
    },
  );
});
