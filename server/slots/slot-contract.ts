import { RESERVED_PROP_NAMES, Slot, type JsonSchema, type SlotPlacedBy } from '../../shared';
import { nearName } from './near-name';
import { PropsValidator } from './props-validator';

/** A slot where it is placed: its location, its position there, and who placed it. */
export interface PlacedSlot {
  /** A location value (`global-before-content`), or `resource form "articles"` for a slot among a form's fields. */
  location: string;
  /** Among a resource form's fields: the component must be one of its remote's form components. */
  inForm?: boolean;
  /** `[0]`, or `[1].content[0]` for a slot given as another slot's content. */
  position: string;
  slot: Slot;
  /** `code`: `registerSlots`; `configuration`: the `"slots"` of a REMOTES_CONFIG entry. */
  source: SlotPlacedBy;
  /** The remote a configured slot is placed for; code names only the component. */
  remote: string | null;
}

export type SlotProblemKind =
  | 'unknown-component'
  | 'remote-disabled'
  | 'remote-not-available'
  | 'props-invalid'
  | 'pattern-not-checked'
  | 'reserved-prop'
  | 'not-form-component'
  | 'form-component-outside-form'
  | 'placement-invalid'
  | 'placed-twice'
  | 'remote-not-allowed';

/** What stops a slot from rendering, with everything a registration error names. */
export interface SlotProblem {
  kind: SlotProblemKind;
  location: string;
  position: string;
  source: PlacedSlot['source'];
  component: string;
  /** The remote that provides (or was meant to provide) the component; null when none is known. */
  remote: string | null;
  /** JSON path of the offending prop (`props.amountDue`); null for problems of the whole slot. */
  path: string | null;
  message: string;
  /** The offending prop value the message ends with (`, got <quoted>`), when it quotes one (props-invalid). */
  quoted?: string;
  /**
   * Whether it refuses a start or a reload. false when the problem may go away without a change here (a remote that
   * has not answered yet may provide the component) or was chosen by the operator (a remote switched off): such
   * problems are logged and shown by the inspector.
   */
  blocking: boolean;
}

/** What the check knows of the remotes: those it can check against, those switched off, those not answering. */
export interface ContractRemotes {
  /** Remotes known now, with the props schema of each component that declares one (a plain remoteEntry.js: none). */
  known: ReadonlyArray<{
    name: string;
    components: readonly string[];
    formComponents?: readonly string[];
    props?: Readonly<Record<string, JsonSchema>>;
  }>;
  /** Remotes with `"enabled": false`, with the components they would provide. */
  disabled: ReadonlyArray<{ name: string; components: readonly string[] }>;
  /** Remotes declared by entry whose descriptor has not been read (yet); `reason` when reading it failed. */
  waiting: ReadonlyArray<{ name: string; reason?: string }>;
}

/** `InvoiceBanner at global-before-content[0] (code, remote "team_billing"): props.amountDue must be number, got "lots"`. */
export function formatSlotProblem(problem: SlotProblem): string {
  return `${placementOf(problem)}: ${whatOf(problem)}`;
}

/**
 * One line per placement with problems, in the order first met, each with all its problems:
 * `InvoiceBanner at global-before-content[0] (code, remote "team_billing"): props.amountDue must be number, got
 * "lots"; props.currency is required (string)`.
 */
export function formatSlotProblemsByPlacement(problems: readonly SlotProblem[]): string[] {
  const byPlacement = new Map<string, string[]>();
  for (const problem of problems) {
    const placement = placementOf(problem);
    byPlacement.set(placement, [...(byPlacement.get(placement) ?? []), whatOf(problem)]);
  }
  return [...byPlacement].map(([placement, what]) => `${placement}: ${what.join('; ')}`);
}

/** `InvoiceBanner at global-before-content[0] (code, remote "team_billing")`: the placement a problem is of. */
function placementOf(problem: SlotProblem): string {
  const remote = problem.remote === null ? '' : `, remote "${problem.remote}"`;
  return `${problem.component} at ${problem.location}${problem.position} (${problem.source}${remote})`;
}

/** `props.amountDue must be number, got "lots"`: what is wrong with the placement. */
function whatOf(problem: SlotProblem): string {
  const path = problem.path === null ? '' : `${problem.path} `;
  return `${path}${problem.message}`;
}

/** The slots placed at one location (and their content slots, recursively), in order. */
export function placedSlots(
  location: string,
  slots: readonly Slot[],
  source: PlacedSlot['source'],
  remote: string | null = null,
  prefix = '',
  firstIndex = 0,
): PlacedSlot[] {
  return slots.flatMap((slot, index) => {
    const position = `${prefix}[${firstIndex + index}]`;
    const placed: PlacedSlot = { location, position, slot, source, remote };
    const content = slot.content;
    const children = content instanceof Slot ? [content] : Array.isArray(content) ? (content as Slot[]) : [];
    return [placed, ...placedSlots(location, children, source, remote, `${position}.content`)];
  });
}

/**
 * The props contract across the federation boundary, checked where the server can: every slot against the
 * descriptors of the remotes. A slot's component must be provided by a known remote (by the remote it is configured
 * for, in REMOTES_CONFIG) that is not disabled; its props must satisfy the component's schema (its own props only:
 * the host adds the context props of forms and record actions) and may not use a name React keeps (`key`, `ref`).
 */
export class SlotContract {
  private readonly validator = new PropsValidator();

  check(slots: readonly PlacedSlot[], remotes: ContractRemotes): SlotProblem[] {
    return slots.flatMap((placed) => this.checkOne(placed, remotes));
  }

  private checkOne(placed: PlacedSlot, remotes: ContractRemotes): SlotProblem[] {
    const { slot } = placed;
    const problem = (
      kind: SlotProblemKind,
      remote: string | null,
      message: string,
      path: string | null = null,
      blocking = true,
    ): SlotProblem => ({
      kind,
      location: placed.location,
      position: placed.position,
      source: placed.source,
      component: slot.component,
      remote,
      path,
      message,
      blocking,
    });

    const problems: SlotProblem[] = [];
    for (const reserved of RESERVED_PROP_NAMES.filter((name) => Object.hasOwn(slot.props, name))) {
      problems.push(
        problem(
          'reserved-prop',
          placed.remote,
          'is reserved by React and never reaches the component',
          `props.${reserved}`,
        ),
      );
    }

    const provider =
      placed.remote === null
        ? remotes.known.find((remote) => remote.components.includes(slot.component))
        : remotes.known.find((remote) => remote.name === placed.remote);
    if (provider === undefined) {
      problems.push(this.missingProvider(placed, remotes, problem));
      return problems;
    }
    if (!provider.components.includes(slot.component)) {
      const provided = provider.components.join(', ') || 'none';
      problems.push(
        problem(
          'unknown-component',
          provider.name,
          `remote "${provider.name}" provides no component "${slot.component}" (it provides ${provided})`,
        ),
      );
      return problems;
    }
    if (placed.inForm && !(provider.formComponents ?? []).includes(slot.component)) {
      problems.push(
        problem(
          'not-form-component',
          provider.name,
          `remote "${provider.name}" does not list "${slot.component}" among its formComponents, so a form cannot ` +
            `render it (${formComponentsOf(provider)}; its team lists a component written for forms in ` +
            `formComponents in its remote.ts)`,
        ),
      );
    }
    if (!placed.inForm && (provider.formComponents ?? []).includes(slot.component)) {
      // A warning, not a refusal: a form component may be written to render on a page too, but one that reads its
      // form's context fails on every page showing it, and its team learns it only from the failures.
      problems.push(
        problem(
          'form-component-outside-form',
          provider.name,
          `is one of remote "${provider.name}"'s formComponents: outside a resource form it receives no ` +
            '`resource` or `formContext`, and fails if it reads them',
          null,
          false,
        ),
      );
    }
    const schema = provider.props?.[slot.component];
    if (schema === undefined) return problems; // a plain remoteEntry.js remote: props are checked as JSON only
    let violations;
    try {
      violations = this.validator.validate(schema, slot.props, slot.component);
    } catch (error) {
      return [...problems, problem('props-invalid', provider.name, (error as Error).message)];
    }
    for (const violation of violations) {
      const found = problem('props-invalid', provider.name, violation.message, violation.path);
      problems.push(violation.quoted === undefined ? found : { ...found, quoted: violation.quoted });
    }
    // Said, not refused: the slot renders as it did before the product ran patterns in linear time.
    for (const { pattern, reason } of this.validator.notCheckedIn(schema)) {
      const message = `its props schema's pattern ${JSON.stringify(pattern)} is not checked: ${reason}`;
      problems.push(problem('pattern-not-checked', provider.name, message, null, false));
    }
    return problems;
  }

  private missingProvider(
    placed: PlacedSlot,
    remotes: ContractRemotes,
    problem: (
      kind: SlotProblemKind,
      remote: string | null,
      message: string,
      path?: null,
      blocking?: boolean,
    ) => SlotProblem,
  ): SlotProblem {
    const { component } = placed.slot;
    const disabled = remotes.disabled.find((remote) =>
      placed.remote === null ? remote.components.includes(component) : remote.name === placed.remote,
    );
    if (disabled !== undefined) {
      // Reported, never refused: switching a remote off is how an operator takes a failing remote out of every
      // page at once, and it must work without a code change (its slots are then left out by the host).
      return problem(
        'remote-disabled',
        disabled.name,
        `remote "${disabled.name}" provides "${component}" but is disabled ("enabled": false in REMOTES_CONFIG)`,
        null,
        false,
      );
    }
    if (placed.remote !== null) {
      const waiting = remotes.waiting.find((remote) => remote.name === placed.remote);
      const reason = waiting?.reason === undefined ? 'it has not answered yet' : waiting.reason;
      return waiting
        ? problem(
            'remote-not-available',
            placed.remote,
            `remote "${placed.remote}" is not available: ${reason}`,
            null,
            false,
          )
        : problem('unknown-component', placed.remote, `no remote "${placed.remote}" is configured`);
    }
    const hint = didYouMean(component, remotes.known);
    if (remotes.waiting.length > 0) {
      // Not refused: the remote not answering may provide it. A near name of a remote that answers says the likelier
      // mistake now, where the check when the remote answers would say it only then.
      const names = remotes.waiting.map((remote) => remote.name).join(', ');
      return problem(
        'unknown-component',
        null,
        `no remote known now provides "${component}" (not answering: ${names})${hint}`,
        null,
        false,
      );
    }
    return problem('unknown-component', null, `no remote provides "${component}"${hint}`);
  }
}

/** `its form components: SlugPreview, SaveNote`, or that it has none: what a form slot of this remote may place. */
function formComponentsOf(remote: ContractRemotes['known'][number]): string {
  const listed = remote.formComponents ?? [];
  return listed.length === 0 ? 'it has no form components' : `its form components: ${listed.join(', ')}`;
}

/** `; did you mean "InvoiceBanner" (remote "team_billing")?` when a component of these remotes is near, else ''. */
function didYouMean(component: string, remotes: ContractRemotes['known']): string {
  const near = nearName(
    component,
    remotes.flatMap((remote) => remote.components),
  );
  if (near === undefined) return '';
  const remote = remotes.find((candidate) => candidate.components.includes(near));
  return `; did you mean "${near}"${remote === undefined ? '' : ` (remote "${remote.name}")`}?`;
}

/** Slots that break the contract at start-up or in a reloaded configuration: every problem, in one message. */
export class SlotContractError extends Error {
  constructor(readonly problems: readonly SlotProblem[]) {
    // Problems, not slots: a slot with two (a bad prop and a missing one) is listed twice, and said so.
    const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
    super(
      `Slots cannot render as registered: ${count} ` +
        `(slot at location[position] (source, remote): problem):\n${problems.map((p) => `  - ${formatSlotProblem(p)}`).join('\n')}`,
    );
    this.name = 'SlotContractError';
  }
}
