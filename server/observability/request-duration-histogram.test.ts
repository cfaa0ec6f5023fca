import fc from 'fast-check';
import { Histogram, Registry, type Metric } from 'prom-client';
import { RequestDurationHistogram } from './request-duration-histogram';

const NAME = 'slots_http_request_duration_seconds';
const HELP = 'Time to answer an HTTP request, by method, route pattern and status.';
const BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Observation = [method: string, route: string, status: number, seconds: number];

/** The exposition of prom-client's own Histogram and of ours after the same observations. */
async function bothTexts(observations: readonly Observation[]): Promise<[string, string]> {
  const theirs = new Registry();
  const reference = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: ['method', 'route', 'status'] as const,
    buckets: BOUNDS,
    registers: [theirs],
  });
  const ours = new Registry();
  const histogram = new RequestDurationHistogram(NAME, HELP, BOUNDS);
  ours.registerMetric(histogram as unknown as Metric);
  for (const [method, route, status, seconds] of observations) {
    reference.observe({ method, route, status: String(status) }, seconds);
    histogram.observe(method, route, status, seconds);
  }
  return [await theirs.metrics(), await ours.metrics()];
}

describe('RequestDurationHistogram', () => {
  it('exposes exactly what prom-client’s Histogram exposes, bounds, +Inf, series order and sums included', async () => {
    const [theirs, ours] = await bothTexts([
      ['GET', '/slots', 200, 0.0003],
      ['GET', '/slots', 304, 0.001],
      ['POST', '/login', 401, 0.25],
      ['GET', '/slots', 200, 0.0025000001],
      ['GET', '/meta', 200, 12],
      ['HEAD', '/slots', 200, 0],
      ['POST', '/login', 401, 0.7],
    ]);
    expect(ours).toBe(theirs);
    expect(ours).toContain(`${NAME}_bucket{le="0.001",method="GET",route="/slots",status="200"} 1`);
    expect(ours).toContain(`${NAME}_bucket{le="+Inf",method="GET",route="/meta",status="200"} 1`);
    expect(ours).toContain(`${NAME}_count{method="POST",route="/login",status="401"} 2`);
  });

  it('matches prom-client for any observations', async () => {
    const observation = fc.tuple(
      fc.constantFrom('GET', 'HEAD', 'POST'),
      fc.constantFrom('/slots', '/meta', '/api/resources/:resource', '(other)'),
      fc.constantFrom(200, 204, 304, 401, 404, 500),
      fc.oneof(fc.constantFrom(...BOUNDS, 0), fc.double({ min: 0, max: 30, noNaN: true })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 60 }), async (observations) => {
        const [theirs, ours] = await bothTexts(observations);
        expect(ours).toBe(theirs);
      }),
      { numRuns: 300 },
    );
  });

  it('forgets every series on reset, as a registry reset asks', async () => {
    const registry = new Registry();
    const histogram = new RequestDurationHistogram(NAME, HELP, BOUNDS);
    registry.registerMetric(histogram as unknown as Metric);
    histogram.observe('GET', '/slots', 200, 0.0003);
    registry.resetMetrics();
    expect(await registry.metrics()).toBe(`# HELP ${NAME} ${HELP}\n# TYPE ${NAME} histogram\n`);
    histogram.observe('GET', '/meta', 200, 0.002);
    expect(await registry.metrics()).toContain(`${NAME}_count{method="GET",route="/meta",status="200"} 1`);
  });
});
