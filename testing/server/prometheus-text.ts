/**
 * A strict parser of Prometheus' text exposition format (0.0.4), for tests: what it accepts, a Prometheus server
 * scrapes. It throws, naming the line, on anything the format does not allow: a malformed name, label or value, an
 * unescaped quote, a TYPE after its samples or given twice, a family's samples split apart, a sample of no family
 * its TYPE allows (a histogram's `_bucket` without `le`), a series given twice.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  /** The sample's own name (`slots_http_request_duration_seconds_bucket`). */
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number;
}

export interface MetricFamily {
  name: string;
  type: MetricType;
  help: string | undefined;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES: ReadonlySet<string> = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Readonly<Record<MetricType, readonly string[]>> = {
  counter: ['', '_total'],
  gauge: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
  untyped: [''],
};

/** The families of an exposition, by name, in order. */
export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily & { typed?: boolean }>();
  const finished = new Set<string>();
  const seenSeries = new Set<string>();
  let current: MetricFamily | null = null;
  if (text !== '' && !text.endsWith('\n')) throw new Error('The exposition must end with a line feed.');
  const lines = text.split('\n');
  lines.pop();
  lines.forEach((line, index) => {
    const where = `line ${index + 1} (${JSON.stringify(line)})`;
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!match) return; // a plain comment
      const [, keyword, name, rest] = match as unknown as [string, 'HELP' | 'TYPE', string, string];
      if (!METRIC_NAME.test(name)) throw new Error(`Bad metric name at ${where}.`);
      const family = familyFor(name, where);
      if (keyword === 'HELP') {
        if (family.help !== undefined) throw new Error(`Second HELP for ${name} at ${where}.`);
        family.help = unescape(rest, false, where);
      } else {
        if (!TYPES.has(rest)) throw new Error(`Unknown type at ${where}.`);
        if (family.samples.length > 0 || family.typed) throw new Error(`TYPE of ${name} too late at ${where}.`);
        family.type = rest as MetricType;
        family.typed = true;
      }
      return;
    }
    const sample = parseSample(line, where);
    const family = current !== null && belongsTo(sample.name, current) ? current : familyOfSample(sample.name, where);
    const series = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (seenSeries.has(series)) throw new Error(`Series given twice at ${where}.`);
    seenSeries.add(series);
    if (family.type === 'histogram' && sample.name.endsWith('_bucket') && sample.labels.le === undefined) {
      throw new Error(`A histogram bucket without "le" at ${where}.`);
    }
    family.samples.push(sample);
  });
  return new Map([...families].map(([name, { typed: _typed, ...family }]) => [name, family]));

  function familyFor(name: string, where: string): MetricFamily & { typed?: boolean } {
    let family = families.get(name);
    if (family === undefined) {
      if (finished.has(name)) throw new Error(`Family ${name} resumed at ${where}.`);
      family = { name, type: 'untyped', help: undefined, samples: [] };
      families.set(name, family);
    } else if (family !== current) {
      throw new Error(`Family ${name} resumed at ${where}.`);
    }
    if (current !== null && current !== family) finished.add(current.name);
    current = family;
    return family;
  }

  function familyOfSample(sampleName: string, where: string): MetricFamily {
    for (const family of families.values()) {
      if (belongsTo(sampleName, family)) throw new Error(`Family ${family.name} resumed at ${where}.`);
    }
    return familyFor(sampleName, where);
  }
}

function belongsTo(sampleName: string, family: MetricFamily): boolean {
  return SUFFIXES[family.type].some((suffix) => sampleName === `${family.name}${suffix}`);
}

function parseSample(line: string, where: string): Sample {
  const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
  if (!nameMatch) throw new Error(`Bad sample name at ${where}.`);
  const name = nameMatch[0];
  let rest = line.slice(name.length);
  const labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    rest = rest.slice(1);
    while (!rest.startsWith('}')) {
      const label = /^([^=]*)="/.exec(rest);
      if (!label || !LABEL_NAME.test(label[1]!)) throw new Error(`Bad label name at ${where}.`);
      if (labels[label[1]!] !== undefined) throw new Error(`Label ${label[1]} twice at ${where}.`);
      rest = rest.slice(label[0].length);
      let end = 0;
      while (end < rest.length && rest[end] !== '"') end += rest[end] === '\\' ? 2 : 1;
      if (end >= rest.length) throw new Error(`Unterminated label value at ${where}.`);
      labels[label[1]!] = unescape(rest.slice(0, end), true, where);
      rest = rest.slice(end + 1);
      if (rest.startsWith(',')) rest = rest.slice(1);
      else if (!rest.startsWith('}')) throw new Error(`Expected "," or "}" at ${where}.`);
    }
    rest = rest.slice(1);
  }
  const value = /^ (\S+)( -?\d+)?$/.exec(rest);
  if (!value) throw new Error(`Bad value at ${where}.`);
  return { name, labels, value: parseValue(value[1]!, where) };
}

function parseValue(raw: string, where: string): number {
  // As Prometheus reads them (Go's ParseFloat): NaN and Inf in any case, with an optional sign before Inf.
  if (/^nan$/i.test(raw)) return NaN;
  if (/^\+?inf(inity)?$/i.test(raw)) return Infinity;
  if (/^-inf(inity)?$/i.test(raw)) return -Infinity;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw)) throw new Error(`Bad number at ${where}.`);
  return Number(raw);
}

/** Label values escape `\`, `"` and line feeds; HELP texts `\` and line feeds. Any other escape is an error. */
function unescape(raw: string, quoted: boolean, where: string): string {
  return raw.replace(/\\(.?)/g, (_match, next: string) => {
    if (next === '\\') return '\\';
    if (next === 'n') return '\n';
    if (next === '"' && quoted) return '"';
    throw new Error(`Bad escape at ${where}.`);
  });
}

/** The value of the one sample named `name` whose labels include `labels`; throws when none or several match. */
export function sampleValue(
  families: Map<string, MetricFamily>,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number {
  const matches = [...families.values()]
    .flatMap((family) => family.samples)
    .filter(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    );
  if (matches.length !== 1) throw new Error(`${matches.length} samples ${name}${JSON.stringify(labels)}.`);
  return matches[0]!.value;
}
