import type { JsonSchema, JsonValue, PlacementProblem } from '../../../shared';

/** `linkLabel`, `link_label` -> `Link label`: a prop's name as a label when its schema gives no title. */
export function humanName(name: string): string {
  const words = name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? name : words[0]!.toUpperCase() + words.slice(1);
}

/** The steps of a problem's path after `props`: `props.links[0]["a b"]` -> `links`, 0, `a b`; null for another path. */
export function pathSteps(path: string): Array<string | number> | null {
  if (!path.startsWith('props')) return null;
  const steps: Array<string | number> = [];
  const step = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  step.lastIndex = 'props'.length;
  while (step.lastIndex < path.length) {
    const match = step.exec(path);
    if (match === null) return null;
    steps.push(match[1] ?? (match[2] !== undefined ? Number(match[2]) : (JSON.parse(match[3]!) as string)));
  }
  return steps;
}

function objectOf(value: JsonValue | undefined): { [key: string]: JsonValue } | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;
}

/**
 * A prop as the operator knows it from the props form: each step by its schema's `title`, else its name in words,
 * an item of a list by its number (`Links, item 1, Href`).
 */
export function propLabel(schema: JsonSchema | null, steps: ReadonlyArray<string | number>): string {
  let at: JsonValue | undefined = schema ?? undefined;
  return steps
    .map((step) => {
      if (typeof step === 'number') {
        at = objectOf(at)?.items;
        return `item ${step + 1}`;
      }
      at = objectOf(objectOf(at)?.properties)?.[step];
      const title = objectOf(at)?.title;
      return typeof title === 'string' && title.trim() !== '' ? title : humanName(step);
    })
    .join(', ');
}

/**
 * A problem of a slot's props in words, by the labels of its props form: `props.title: is required (string)` ->
 * `Title is required`, `props.count: must be integer, got "lots"` -> `Count must be integer, got "lots"`. Other
 * problems keep their path in front, as the server words them.
 */
export function problemInWords(problem: Pick<PlacementProblem, 'path' | 'message'>, schema: JsonSchema | null): string {
  const steps = problem.path === null ? null : pathSteps(problem.path);
  if (steps === null) return `${problem.path === null ? '' : `${problem.path}: `}${problem.message}`;
  const message = problem.message.replace(/^is required \(.*\)$/, 'is required');
  return steps.length === 0 ? `The props: ${message}` : `${propLabel(schema, steps)} ${message}`;
}

/** The id of the props form's control for a problem's field (`props.links[0].href` -> `<prefix>_links_0_href`). */
export function fieldId(idPrefix: string, problem: Pick<PlacementProblem, 'path'>): string | null {
  const steps = problem.path === null ? null : pathSteps(problem.path);
  return steps === null || steps.length === 0 ? null : [idPrefix, ...steps].join('_');
}
