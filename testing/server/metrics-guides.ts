/**
 * What the operators' guides and the Prometheus rule files say about metrics, read so that a test can hold it against
 * a real exposition: the metrics table of docs/operators/metrics-and-traces.md (each family's labels, type and unit)
 * and every `slots_` name any guide or rule file writes, in a table, the prose or a query, with the labels it gives or
 * groups by, and the values it selects of a label whose values are a closed set.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { closedValuesFindings, type ClosedLabelValues } from './metrics-closed-labels';
import type { MetricFamily, MetricType } from './prometheus-text';
import { REPO_ROOT } from '../system/repo-root';

/** A row of the guide's metrics table. */
export interface GuideRow {
  /** `slots_sign_ins_total`, or a prefix of prom-client's figures, `slots_process_*`. */
  name: string;
  /** Sorted: `slots_sign_ins_total{outcome}` -> `['outcome']`. */
  labels: string[];
  /** The type column, sorted: `histogram (seconds)` -> `['histogram']`; `counter, gauge` -> both. */
  types: MetricType[];
  /** The unit the type column gives in brackets: `histogram (seconds)` -> `seconds`. */
  unit: string | undefined;
  /** Its description begins `PostgreSQL only`. */
  postgresOnly: boolean;
  /** Every name of its table row: the type column speaks of them together (`slots_process_*`, `slots_nodejs_*`). */
  row: string[];
}

/**
 * The metrics table of the guide (the table under `## Metrics` whose columns are metric, type, what it says): each
 * name with its labels, its type and unit, and whether it is PostgreSQL's only.
 */
export function guideMetrics(guide: string): GuideRow[] {
  const section = guide.slice(guide.indexOf('## Metrics'));
  const rows: GuideRow[] = [];
  const table = /^\| metric +\| type +\|[^\n]*\n\|[- |]+\n((?:\|[^\n]*\n)+)/m.exec(section);
  if (!table) throw new Error(`No metrics table (metric | type | …) under "## Metrics" in the guide.`);
  for (const row of table[1]!.split('\n').filter(Boolean)) {
    const [, first, type, description] = row.split('|') as [string, string, string, string];
    const stated = /^ *([a-z, ]+?)(?: \(([a-z]+)\))? *$/.exec(type);
    if (!stated) throw new Error(`The type column of ${first.trim()} reads "${type.trim()}": one of ${TYPE_WORDS}.`);
    const types = stated[1]!.split(/, */).sort() as MetricType[];
    if (!types.every((word) => TYPE_WORDS.includes(word))) {
      throw new Error(`The type column of ${first.trim()} reads "${type.trim()}": one of ${TYPE_WORDS}.`);
    }
    const named = [...first.matchAll(/`(slots_[a-z_*]+)(?:\{([a-z_,]*)\})?`/g)];
    for (const [, name, labels] of named) {
      rows.push({
        row: named.map(([, each]) => each!),
        name: name!,
        labels: labels ? labels.split(',').sort() : [],
        types,
        unit: stated[2],
        postgresOnly: description.trim().startsWith('PostgreSQL only'),
      });
    }
  }
  return rows;
}

const TYPE_WORDS: readonly MetricType[] = ['counter', 'gauge', 'histogram', 'summary'];

/** The unit a name ends with, before a counter's `_total`: `slots_http_request_duration_seconds` -> `seconds`. */
export function unitOf(name: string): string | undefined {
  return /_(seconds|bytes|percent|ratio|celsius|meters|volts|amperes|joules|grams)(?:_total)?$/.exec(name)?.[1];
}

/** Every guide: the Markdown files under docs/, and the README. */
export function readGuides(): Map<string, string> {
  const files = (fs.readdirSync(path.join(REPO_ROOT, 'docs'), { recursive: true }) as string[])
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join('docs', file))
    .sort();
  return new Map(['README.md', ...files].map((file) => [file, fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')]));
}

/**
 * The Prometheus rule files shipped for operators (deploy/prometheus/*.yaml: the alerting rules and their promtool
 * cases), by their path from the repository's root: what they select is held to the exposition as a guide's queries
 * are, since an alert on a misspelt name or value never fires, and nothing says so.
 */
export function readRuleFiles(): Map<string, string> {
  const folder = path.join('deploy', 'prometheus');
  const files = fs
    .readdirSync(path.join(REPO_ROOT, folder))
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => path.join(folder, file))
    .sort();
  return new Map(files.map((file) => [file, fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')]));
}

/**
 * Names the guides write with the prefix that are not metrics, each with what it is: a misspelt metric is not among
 * them, so it fails.
 */
const NOT_METRICS: ReadonlyMap<string, string> = new Map([
  ['slots_sort_fold_v1', 'the SQL function the sort keys are folded with (scaling.md, deploy.md)'],
]);

/** Labels Prometheus gives every series it scrapes: a query may select or group by them. */
const TARGET_LABELS = ['instance', 'job'];

/**
 * What is wrong with the guides' mentions of metrics, one line each (none: nothing). Anywhere in a guide or a rule file
 * (a table, the prose, a code block, a rule's expression, a case's series), `slots_<name>` must be a family of
 * `families` or one of its samples (`…_bucket`, `…_count`), and the labels after it (`{outcome}`, `{status=~"5.."}`)
 * its labels; `slots_process_*` must be the prefix of one. A value selected of a label of `closed` must be one of its
 * values (`status="down"`; each of `status=~"down|timed-out"`; another pattern must match one). In a query (a `promql`
 * block, inline code, a rule file's `expr`), `by (…)` and `without (…)` name labels of every metric they group.
 */
export function mentionFindings(
  guides: ReadonlyMap<string, string>,
  families: ReadonlyMap<string, MetricFamily>,
  closed: ClosedLabelValues = new Map(),
): string[] {
  const findings: string[] = [];
  for (const [file, text] of guides) {
    for (const match of text.matchAll(/(?<![\w-])(slots_[a-z0-9][a-z0-9_]*\*?)(\{[^}\n]*\})?/g)) {
      const [, name, selector] = match as unknown as [string, string, string | undefined];
      if (NOT_METRICS.has(name)) continue;
      if (name.endsWith('*')) {
        const prefix = name.slice(0, -1);
        if (![...families.keys()].some((family) => family.startsWith(prefix))) {
          findings.push(`${file}: ${name} is the prefix of no metric the server exposes`);
        }
        continue;
      }
      const allowed = labelsOfSample(name, families);
      if (allowed === undefined) {
        findings.push(`${file}: ${name} is no metric the server exposes`);
        continue;
      }
      for (const label of selector ? selectorLabels(selector) : []) {
        if (!allowed.includes(label)) {
          findings.push(`${file}: ${name} has no label "${label}" (it has ${ownLabels(allowed)})`);
        }
      }
      for (const wrong of selector ? closedValuesFindings(name, selector, families, closed) : []) {
        findings.push(`${file}: ${wrong}`);
      }
    }
    for (const query of file.endsWith('.yaml') ? ruleExpressions(text) : queriesIn(text)) {
      for (const { labels, grouped } of groupings(query)) {
        for (const name of grouped) {
          const allowed = labelsOfSample(name, families);
          if (allowed === undefined) continue; // said above
          for (const label of labels.filter((label) => !allowed.includes(label))) {
            findings.push(`${file}: ${name} has no label "${label}" to group by (it has ${ownLabels(allowed)})`);
          }
        }
      }
    }
  }
  return findings;
}

/** The queries of a rule file: every `expr` in it, at any depth (a group's rules, a promtool case's tests). */
function ruleExpressions(text: string): string[] {
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'expr' && typeof value === 'string') found.push(value.replace(/\s+/g, ' '));
        else visit(value);
      }
    }
  };
  visit(parse(text));
  return found.filter((query) => query.includes('slots_'));
}

/** The labels a series of `name` may have (its family's, a bucket's `le`, the target's), or undefined: no such. */
function labelsOfSample(name: string, families: ReadonlyMap<string, MetricFamily>): string[] | undefined {
  for (const family of families.values()) {
    const suffix = name.startsWith(family.name) ? name.slice(family.name.length) : undefined;
    if (suffix === undefined) continue;
    const own = labelsOf(family);
    if (suffix === '') return [...own, ...(family.type === 'summary' ? ['quantile'] : []), ...TARGET_LABELS];
    if (family.type === 'histogram' && suffix === '_bucket') return [...own, 'le', ...TARGET_LABELS];
    if ((family.type === 'histogram' || family.type === 'summary') && (suffix === '_sum' || suffix === '_count')) {
      return [...own, ...TARGET_LABELS];
    }
  }
  return undefined;
}

function ownLabels(allowed: string[]): string {
  const own = allowed.filter((label) => !TARGET_LABELS.includes(label)).sort();
  return own.length > 0 ? own.join(', ') : 'none';
}

/** The label names of `{a,b}` (the guide's form) or of a selector, `{status=~"5..",route!="/readyz"}`. */
function selectorLabels(selector: string): string[] {
  return [...selector.replace(/"(?:[^"\\]|\\.)*"/g, '""').matchAll(/[a-zA-Z_][a-zA-Z0-9_]*/g)].map(([label]) => label);
}

/** The queries of a guide: each of its `promql` blocks' queries (apart by a blank line, comments left out), and each inline code. */
function queriesIn(text: string): string[] {
  const blocks = [...text.matchAll(/^```promql\n([\s\S]*?)^```/gm)].flatMap(([, block]) =>
    block!.split(/\n\s*\n/).map((query) =>
      query
        .split('\n')
        .filter((line) => !line.trimStart().startsWith('#'))
        .join(' '),
    ),
  );
  const inline = [...text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/`([^`\n]+)`/g)].map(([, code]) => code!);
  return [...blocks, ...inline].filter((query) => query.includes('slots_'));
}

/**
 * Each `by (…)` or `without (…)` of a query with the metrics it groups: those in the brackets after it
 * (`sum by (route) (rate(x[5m]))`) or before it (`sum(rate(x[5m])) by (route)`).
 */
function groupings(query: string): Array<{ labels: string[]; grouped: string[] }> {
  const found: Array<{ labels: string[]; grouped: string[] }> = [];
  for (const match of query.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)) {
    const labels = match[1]!
      .split(',')
      .map((label) => label.trim())
      .filter(Boolean);
    const after = query.slice(match.index + match[0].length);
    const before = query.slice(0, match.index).trimEnd();
    let group = '';
    if (after.trimStart().startsWith('(')) group = bracketed(after.trimStart());
    else if (before.endsWith(')')) group = [...bracketed([...before].reverse().join(''), ')', '(')].reverse().join('');
    const grouped = [...group.matchAll(/(?<![\w-])slots_[a-z0-9][a-z0-9_]*/g)].map(([name]) => name);
    found.push({ labels, grouped });
  }
  return found;
}

/** The bracketed part `text` begins with, up to its closing bracket. */
function bracketed(text: string, open = '(', close = ')'): string {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === open) depth++;
    else if (text[index] === close && --depth === 0) return text.slice(0, index + 1);
  }
  return text;
}

/** The labels of a family's samples, sorted; a histogram's `le` is the format's, not ours. */
export function labelsOf(family: MetricFamily): string[] {
  const names = new Set(family.samples.flatMap((sample) => Object.keys(sample.labels)));
  if (family.type === 'histogram') names.delete('le');
  if (family.type === 'summary') names.delete('quantile');
  return [...names].sort();
}
