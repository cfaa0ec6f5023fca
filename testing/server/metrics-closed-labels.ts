/**
 * The labels of the server's metrics whose values are a closed set, and what a guide's or rule file's selector picks
 * of them that is none of their values (a misspelt `status="dwon"` is valid PromQL that never matches): read by the
 * metrics guide check (metrics-guides.ts).
 */
import { SLOT_LOAD_OUTCOMES } from '../../shared';
import { SERVER_CHECK_NAMES } from '../../server/readiness-checks';
import { REMOTE_METRIC_STATUSES } from '../../server/remotes/remote-descriptor-metrics';
import type { MetricFamily } from './prometheus-text';

/** A label whose values are a closed set: each metric's label, with every value the server may give it. */
export type ClosedLabelValues = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

/**
 * The labels whose values the server draws from a closed set, with where the set is read: the code's one definition
 * of it, or `exposition` where the server writes a series of every value from its first scrape (so that a rate has
 * its zero), which the exposition then holds whole. Labels named by what they count (remote, route, release) are open.
 * The readiness checks' are the server's own (READINESS_CHECKS), not the exposition's: `redis` is there only where
 * Redis is configured, and an application that embeds the server adds checks of its own, which no guide here names.
 */
const CLOSED_LABELS: ReadonlyArray<{ metric: string; label: string; values: readonly string[] | 'exposition' }> = [
  { metric: 'slots_remote_descriptor_status', label: 'status', values: REMOTE_METRIC_STATUSES },
  { metric: 'slots_slot_loads_total', label: 'outcome', values: SLOT_LOAD_OUTCOMES },
  { metric: 'slots_readiness_check', label: 'check', values: SERVER_CHECK_NAMES },
  { metric: 'slots_sign_ins_total', label: 'outcome', values: 'exposition' },
  { metric: 'slots_remotes_config_reloads_total', label: 'outcome', values: 'exposition' },
  { metric: 'slots_db_pool_connections', label: 'state', values: 'exposition' },
];

/**
 * Every closed label's values (CLOSED_LABELS), those of the exposition read from `families`; a family `families`
 * does not sample (PostgreSQL's pool on SQLite) has no values to check against, and is left out.
 */
export function closedLabelValues(families: ReadonlyMap<string, MetricFamily>): ClosedLabelValues {
  const closed = new Map<string, Map<string, readonly string[]>>();
  for (const { metric, label, values } of CLOSED_LABELS) {
    const read =
      values === 'exposition'
        ? [...new Set((families.get(metric)?.samples ?? []).flatMap((sample) => sample.labels[label] || []))]
        : values;
    if (read.length === 0) continue;
    closed.set(metric, new Map([...(closed.get(metric) ?? []), [label, [...read].sort()]]));
  }
  return closed;
}

/**
 * What `selector` (`{status=~"down|timed-out"}`) of the metric `name` selects of a closed label that is none of its
 * values, one line each: `slots_remote_descriptor_status has no status "dwon" (its values: …)`.
 */
export function closedValuesFindings(
  name: string,
  selector: string,
  families: ReadonlyMap<string, MetricFamily>,
  closed: ClosedLabelValues,
): string[] {
  const closedOfName = closedOf(name, families, closed);
  if (closedOfName === undefined) return [];
  const findings: string[] = [];
  for (const { label, operator, value } of selectorMatchers(selector)) {
    const values = closedOfName.get(label);
    if (values === undefined) continue;
    for (const wrong of valuesNotAmong(operator, value, values)) {
      findings.push(`${name} has no ${label} "${wrong}" (its values: ${values.join(', ')})`);
    }
  }
  return findings;
}

/** The closed labels of the family `name` is a sample of (`slots_slot_loads_total` of itself), if any. */
function closedOf(
  name: string,
  families: ReadonlyMap<string, MetricFamily>,
  closed: ClosedLabelValues,
): ReadonlyMap<string, readonly string[]> | undefined {
  for (const family of families.values()) {
    const suffix = name.startsWith(family.name) ? name.slice(family.name.length) : undefined;
    if (suffix === '' || (suffix !== undefined && /^_(bucket|sum|count)$/.test(suffix))) return closed.get(family.name);
  }
  return undefined;
}

/**
 * What a matcher selects that is none of `values`: the value of `=` and `!=`; each alternative of `=~` and `!~` when
 * the pattern is only alternatives (`down|timed-out`), else the whole pattern when it matches none of them. An empty
 * value selects the series without the label, and is no value.
 */
function valuesNotAmong(operator: string, value: string, values: readonly string[]): string[] {
  if (value === '') return [];
  if (operator === '=' || operator === '!=') return values.includes(value) ? [] : [value];
  if (/^[\w-]+(?:\|[\w-]+)*$/.test(value)) return value.split('|').filter((each) => !values.includes(each));
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^(?:${value})$`);
  } catch {
    return []; // RE2 syntax JavaScript does not read: promtool's to judge (tests/observability)
  }
  return values.some((each) => pattern.test(each)) ? [] : [value];
}

/** The matchers of a selector, `{status=~"5..",route!="/readyz"}`, each label with its operator and its value. */
function selectorMatchers(selector: string): Array<{ label: string; operator: string; value: string }> {
  return [...selector.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"/g)].map(
    ([, label, operator, value]) => ({ label: label!, operator: operator!, value: value!.replace(/\\(.)/g, '$1') }),
  );
}
