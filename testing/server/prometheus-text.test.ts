/** The strict Prometheus text parser the /metrics tests rely on: it reads what the format allows, refuses the rest. */
import { parsePrometheusText, sampleValue } from './prometheus-text';

const VALID = `# HELP slots_requests_total Requests, with a \\\\ and a\\nline feed.
# TYPE slots_requests_total counter
slots_requests_total{route="/a",note="say \\"hi\\"\\\\"} 3
slots_requests_total{route="/b"} 1e3 1700000000000
# TYPE slots_lag gauge
slots_lag NaN
# TYPE slots_seconds histogram
slots_seconds_bucket{le="0.1"} 1
slots_seconds_bucket{le="+Inf"} 2
slots_seconds_sum 0.35
slots_seconds_count 2
`;

describe('parsePrometheusText', () => {
  it('reads families with their type, help, labels (unescaped) and values', () => {
    const families = parsePrometheusText(VALID);
    expect([...families.keys()]).toEqual(['slots_requests_total', 'slots_lag', 'slots_seconds']);
    expect(families.get('slots_requests_total')?.help).toBe('Requests, with a \\ and a\nline feed.');
    expect(sampleValue(families, 'slots_requests_total', { note: 'say "hi"\\' })).toBe(3);
    expect(sampleValue(families, 'slots_requests_total', { route: '/b' })).toBe(1000);
    expect(sampleValue(families, 'slots_lag')).toBeNaN();
    expect(sampleValue(families, 'slots_seconds_bucket', { le: '+Inf' })).toBe(2);
    expect(families.get('slots_seconds')?.type).toBe('histogram');
  });

  it.each([
    ['no final line feed', 'slots_a 1'],
    ['a bad metric name', '1slots 1\n'],
    ['a bad label name', 'slots_a{1x="v"} 1\n'],
    ['an unterminated label value', 'slots_a{x="v} 1\n'],
    ['an unknown escape', 'slots_a{x="\\t"} 1\n'],
    ['a missing value', 'slots_a{x="v"}\n'],
    ['a bad number', 'slots_a 1,5\n'],
    ['a label given twice', 'slots_a{x="1",x="2"} 1\n'],
    ['a series given twice', 'slots_a 1\nslots_a 2\n'],
    ['a TYPE after its samples', 'slots_a 1\n# TYPE slots_a gauge\n'],
    ['an unknown type', '# TYPE slots_a meter\n'],
    ['a family split apart', '# TYPE slots_a gauge\nslots_a{x="1"} 1\nslots_b 1\nslots_a{x="2"} 1\n'],
    ['a bucket without le', '# TYPE slots_h histogram\nslots_h_bucket 1\n'],
  ])('refuses %s', (_case, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});
