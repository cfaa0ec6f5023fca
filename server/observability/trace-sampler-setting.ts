import { InvalidSettingError } from '../config/env-values';

/** The samplers `OTEL_TRACES_SAMPLER` may name: the SDK's own (the Jaeger and X-Ray ones need packages not here). */
export const TRACE_SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;

export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

/** Which sampler decides, and the share of new traces it records (1 and 0 for the always ones). */
export interface TraceSamplerSetting {
  name: TraceSamplerName;
  ratio: number;
}

/**
 * `OTEL_TRACES_SAMPLER` and, for the ratio samplers, `OTEL_TRACES_SAMPLER_ARG`, read as the OpenTelemetry
 * specification says (unset or blank: `parentbased_always_on`; a ratio sampler without a ratio: 1), and checked: the
 * SDK takes a name it does not know (`parentbased_traceid_ratio`), or a ratio it cannot read (`0,1`, `2`), for every
 * request traced and says so only on its diagnostics channel, which is off. An operator who asked for one request in
 * ten then had every one traced, at half the throughput, without a word: the start is refused instead, naming the
 * variable, as a bad endpoint or protocol is.
 */
export function traceSamplerOf(env: NodeJS.ProcessEnv): TraceSamplerSetting {
  const given = env.OTEL_TRACES_SAMPLER?.trim() ?? '';
  if (given === '') return { name: 'parentbased_always_on', ratio: 1 };
  const name = TRACE_SAMPLERS.find((known) => known === given);
  if (name === undefined) {
    throw new InvalidSettingError('OTEL_TRACES_SAMPLER', given, `one of ${TRACE_SAMPLERS.join(', ')}`);
  }
  if (name.endsWith('always_on')) return { name, ratio: 1 };
  if (name.endsWith('always_off')) return { name, ratio: 0 };
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim() ?? '';
  if (arg === '') return { name, ratio: 1 };
  const ratio = Number(arg);
  if (!(ratio >= 0 && ratio <= 1)) {
    throw new InvalidSettingError(
      'OTEL_TRACES_SAMPLER_ARG',
      arg,
      `the share of requests traced, a number from 0 to 1 with a dot: 0.1 for one in ten`,
    );
  }
  return { name, ratio };
}
