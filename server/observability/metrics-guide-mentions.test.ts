/**
 * The metrics guide check (testing/server/metrics-guides.ts, metrics-closed-labels.ts) read against a small
 * exposition, on guides and rule files written here: it names each misspelt metric, a label the metric does not have,
 * a grouping by one, and a value selected of a closed label that is none of its values, each with its file. The
 * check run on the real guides, rule files and exposition is metrics-lint.test.ts.
 */
import { closedLabelValues } from '../../testing/server/metrics-closed-labels';
import { mentionFindings } from '../../testing/server/metrics-guides';
import { parsePrometheusText } from '../../testing/server/prometheus-text';

describe('the guides’ mentions of metrics, read against an exposition', () => {
  const families = parsePrometheusText(
    [
      '# TYPE slots_http_request_duration_seconds histogram',
      'slots_http_request_duration_seconds_bucket{route="/slots",le="+Inf"} 1',
      'slots_http_request_duration_seconds_sum{route="/slots"} 0.1',
      'slots_http_request_duration_seconds_count{route="/slots"} 1',
      '# TYPE slots_sign_ins_total counter',
      'slots_sign_ins_total{outcome="refused"} 1',
      'slots_sign_ins_total{outcome="throttled"} 0',
      '# TYPE slots_remote_descriptor_status gauge',
      'slots_remote_descriptor_status{remote="team_billing",status="down"} 1',
      '# TYPE slots_readiness_check gauge',
      'slots_readiness_check{check="database"} 1',
      'slots_readiness_check{check="started"} 1',
      'slots_readiness_check{check="draining"} 1',
      '',
    ].join('\n'),
  );

  it('finds nothing wrong in right names, labels and groupings', () => {
    const guide = [
      'Read `slots_sign_ins_total{outcome}` and `slots_http_request_duration_seconds_count{route!="/login"}`.',
      '```promql',
      'histogram_quantile(0.95, sum by (route, le) (rate(slots_http_request_duration_seconds_bucket[5m])))',
      '',
      'sum(increase(slots_sign_ins_total{job="slots",outcome=~"refused|throttled"}[1h])) by (outcome, instance)',
      '```',
      '',
    ].join('\n');
    expect(mentionFindings(new Map([['docs/a.md', guide]]), families)).toEqual([]);
  });

  it('names a misspelt metric, a label it does not have, and a grouping by one, with the guide', () => {
    const guide = [
      'In prose, `slots_sign_in_total`; in a table, | `slots_sign_ins_total{result}` |',
      '```promql',
      'sum by (method) (rate(slots_http_request_duration_seconds_count[5m]))',
      '```',
      '',
    ].join('\n');
    expect(mentionFindings(new Map([['docs/b.md', guide]]), families)).toEqual([
      'docs/b.md: slots_sign_in_total is no metric the server exposes',
      'docs/b.md: slots_sign_ins_total has no label "result" (it has outcome)',
      'docs/b.md: slots_http_request_duration_seconds_count has no label "method" to group by (it has route)',
    ]);
  });

  it('holds a selected value of a closed label to its values: those of the code, those of the exposition', () => {
    const closed = closedLabelValues(families);
    const right = [
      '`slots_remote_descriptor_status{status=~"down|timed-out|bad-answer"} == 1`, `slots_sign_ins_total{outcome="throttled"}`,',
      '`slots_remote_descriptor_status{status!="answered",remote="any_remote"}`, `slots_remote_descriptor_status{status=~"timed-.*"}`',
    ].join('\n');
    expect(mentionFindings(new Map([['docs/c.md', right]]), families, closed)).toEqual([]);
    const wrong = [
      '`slots_remote_descriptor_status{status=~"down|timedout"} == 1`, `slots_sign_ins_total{outcome="refsued"}`,',
      '`slots_remote_descriptor_status{status!="answerd"}`, `slots_remote_descriptor_status{status=~"timed_.*"}`',
    ].join('\n');
    const statuses = 'answered, bad-answer, built, disabled, down, listed, released, timed-out, waiting';
    expect(mentionFindings(new Map([['docs/d.md', wrong]]), families, closed)).toEqual([
      `docs/d.md: slots_remote_descriptor_status has no status "timedout" (its values: ${statuses})`,
      'docs/d.md: slots_sign_ins_total has no outcome "refsued" (its values: refused, throttled)',
      `docs/d.md: slots_remote_descriptor_status has no status "answerd" (its values: ${statuses})`,
      `docs/d.md: slots_remote_descriptor_status has no status "timed_.*" (its values: ${statuses})`,
    ]);
  });

  it('reads a rule file’s expressions and series as a guide’s queries, naming the file', () => {
    const rules = [
      'groups:',
      '  - name: slots',
      '    rules:',
      '      - alert: Refused',
      '        expr: |',
      '          sum by (instance, outcome) (increase(slots_sign_ins_total{outcome="refsued"}[10m]))',
      '            > sum by (method) (rate(slots_http_request_duration_seconds_count[5m]))',
      '      - alert: Down',
      '        expr: max by (remote) (slots_remote_descriptor_state{status="down"}) == 1',
      'tests:',
      '  - input_series:',
      '      - series: \'slots_remote_descriptor_status{job="slots",remote="team_billing",status="dwn"}\'',
      '',
    ].join('\n');
    expect(
      mentionFindings(new Map([['deploy/prometheus/x.yaml', rules]]), families, closedLabelValues(families)),
    ).toEqual([
      'deploy/prometheus/x.yaml: slots_sign_ins_total has no outcome "refsued" (its values: refused, throttled)',
      'deploy/prometheus/x.yaml: slots_remote_descriptor_state is no metric the server exposes',
      expect.stringMatching(/^deploy\/prometheus\/x\.yaml: slots_remote_descriptor_status has no status "dwn" /),
      'deploy/prometheus/x.yaml: slots_http_request_duration_seconds_count has no label "method" to group by (it has route)',
    ]);
  });

  it('holds a selected readiness check to the server’s own checks, `redis` too where the exposition has none', () => {
    const closed = closedLabelValues(families);
    const right = [
      '`slots_readiness_check{check="redis"} == 0`, `slots_readiness_check{check=~"database|draining"}`,',
      '`slots_readiness_check{check!="started"}`',
    ].join('\n');
    expect(mentionFindings(new Map([['docs/operators/e.md', right]]), families, closed)).toEqual([]);
    const guide = 'A store is out: `slots_readiness_check{check=~"databse|redis"} == 0`.\n';
    const rules = [
      'groups:',
      '  - name: slots',
      '    rules:',
      '      - alert: DatabaseOut',
      '        expr: slots_readiness_check{check="databse"} == 0',
      'tests:',
      '  - input_series:',
      '      - series: \'slots_readiness_check{job="slots",check="reddis"}\'',
      '',
    ].join('\n');
    const checks = 'database, draining, redis, started';
    const files = new Map([
      ['docs/operators/f.md', guide],
      ['deploy/prometheus/y.yaml', rules],
    ]);
    expect(mentionFindings(files, families, closed)).toEqual([
      `docs/operators/f.md: slots_readiness_check has no check "databse" (its values: ${checks})`,
      `deploy/prometheus/y.yaml: slots_readiness_check has no check "databse" (its values: ${checks})`,
      `deploy/prometheus/y.yaml: slots_readiness_check has no check "reddis" (its values: ${checks})`,
    ]);
  });
});
