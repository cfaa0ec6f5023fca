/**
 * The resource of the spans: OTEL_RESOURCE_ATTRIBUTES' pairs, OTEL_SERVICE_NAME winning for the service's name, and
 * an instance id and host name that tell the spans of several hosts apart.
 */
import os from 'node:os';
import { DEFAULT_SERVICE_NAME, traceResourceAttributes } from './trace-resource';

it('reads the pairs of OTEL_RESOURCE_ATTRIBUTES, decoded, with OTEL_SERVICE_NAME winning for the service', () => {
  const attributes = traceResourceAttributes({
    OTEL_RESOURCE_ATTRIBUTES:
      'deployment.environment.name=production, cloud.region = eu-west-1,team=slots%20platform,broken,=x,service.name=from-pairs',
    OTEL_SERVICE_NAME: 'slots-admin',
  });
  expect(attributes).toEqual({
    'service.instance.id': expect.stringMatching(/^[0-9a-f-]{36}$/),
    'host.name': os.hostname(),
    'deployment.environment.name': 'production',
    'cloud.region': 'eu-west-1',
    team: 'slots platform',
    'service.name': 'slots-admin',
  });
});

it('names the service from the pairs without OTEL_SERVICE_NAME, and lets them give the host and instance', () => {
  expect(traceResourceAttributes({ OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-pairs,host.name=app-1' })).toEqual({
    'service.instance.id': expect.any(String),
    'host.name': 'app-1',
    'service.name': 'from-pairs',
  });
  expect(traceResourceAttributes({})['service.name']).toBe(DEFAULT_SERVICE_NAME);
  // One instance id for the process's life: every span of it says the same.
  expect(traceResourceAttributes({})['service.instance.id']).toBe(traceResourceAttributes({})['service.instance.id']);
});
