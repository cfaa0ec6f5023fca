import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Attributes } from '@opentelemetry/api';

/** The service's name when OTEL_SERVICE_NAME (or `service.name` in OTEL_RESOURCE_ATTRIBUTES) gives none. */
export const DEFAULT_SERVICE_NAME = 'slots-server';

/** This process's id among the instances of the service: new at each start, as the conventions ask. */
const INSTANCE_ID = randomUUID();

/**
 * The attributes of the resource every span of this process carries, from the standard variables: the pairs of
 * `OTEL_RESOURCE_ATTRIBUTES` (`key=value,…`, values percent-encoded; `deployment.environment.name=prod,region=eu`),
 * then `service.name` from OTEL_SERVICE_NAME, which wins over a pair of that key, and `service.instance.id` (new at
 * each start) and `host.name` unless the variable gives them: spans of several hosts are told apart by them.
 * A pair without `=` or a key left empty is skipped, as the specification says.
 */
export function traceResourceAttributes(env: NodeJS.ProcessEnv): Attributes {
  const given: Attributes = {};
  for (const pair of (env.OTEL_RESOURCE_ATTRIBUTES ?? '').split(',')) {
    const equals = pair.indexOf('=');
    if (equals === -1) continue;
    const key = pair.slice(0, equals).trim();
    if (key === '') continue;
    given[key] = decoded(pair.slice(equals + 1).trim());
  }
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || given['service.name'] || DEFAULT_SERVICE_NAME;
  return {
    'service.instance.id': INSTANCE_ID,
    'host.name': os.hostname(),
    ...given,
    'service.name': serviceName,
  };
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
