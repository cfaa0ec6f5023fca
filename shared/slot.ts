import { findNonJson, frozenJsonCopy, isPlainObject, type JsonObject } from './json';
import { COMPONENT_NAME_PATTERN, describe } from './names';
import { checkPlacement, InvalidPlacementError, type SlotPlacement } from './slot-placement';
import type { SlotContent, SlotEntry } from './wire';

/** Largest serialised props of one slot. Props are configuration, not a data channel. */
export const SLOT_PROPS_MAX_BYTES = 16 * 1024;

export class InvalidSlotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSlotError';
  }
}

/** Props React keeps for itself: a component is never given them, so a slot may not carry them. */
export const RESERVED_PROP_NAMES: readonly string[] = Object.freeze(['key', 'ref']);

/**
 * Component name -> the props a slot gives it, for every component known when the types were generated
 * (`npm run remotes:types` augments this interface from the remotes' descriptors). Empty here, so a project that does
 * not load the generated declarations may name any component.
 */
export interface KnownSlotComponents {}

type KnownComponentName = keyof KnownSlotComponents & string;

/** The names `Slot.make` accepts: the known components once any are declared, any name before. */
type MakeableComponent = [KnownComponentName] extends [never] ? string : KnownComponentName;

/** `Slot.make`'s arguments after the name: props required when the component has a required prop. */
export type SlotPropsArguments<C extends string> = C extends KnownComponentName
  ? {} extends KnownSlotComponents[C]
    ? [props?: KnownSlotComponents[C] | null, content?: unknown]
    : [props: KnownSlotComponents[C], content?: unknown]
  : [props?: Record<string, unknown> | null, content?: unknown];

/**
 * A backend instruction to render a named frontend component with props (and optional children content).
 * Immutable and validated when made, so a bad registration fails at start-up rather than at request time.
 */

export class Slot {
  private constructor(
    readonly component: string,
    readonly props: Readonly<JsonObject>,
    readonly content: string | Slot | readonly Slot[] | null,
    /** Its id, order and visibility rule at its location (slot-placement.ts); `{}` for a slot that gives none. */
    readonly placement: Readonly<SlotPlacement> = NO_PLACEMENT,
  ) {
    Object.freeze(this);
  }

  /**
   * The same slot with a placement: `Slot.make('Notice').placed({ priority: 10, visibleWhen: { roles: ['operator'] } })`.
   * Checked now (keys, id pattern, integer priority, rule shape); what depends on the other slots (a missing target,
   * a cycle, a rule at a public location) is checked when it is registered.
   */
  placed(placement: SlotPlacement): Slot {
    try {
      return new Slot(this.component, this.props, this.content, checkPlacement(placement, `Slot "${this.component}"`));
    } catch (error) {
      if (error instanceof InvalidPlacementError) throw new InvalidSlotError(error.message);
      throw error;
    }
  }

  /**
   * A slot of a known component, its props typed by the component's schema: an unknown name or a wrong prop does not
   * compile where the generated declarations are loaded (the server). `Slot.untyped` names any component.
   * @param component name of the frontend component, resolved by that name in the host's registries
   * @param props plain JSON object handed to the component; null means `{}`
   * @param content children: a string (text), a Slot or a list of Slots (rendered through the same registry)
   */
  static make<C extends MakeableComponent>(component: C, ...rest: SlotPropsArguments<C>): Slot {
    const [props = {}, content = null] = rest as [props?: Record<string, unknown> | null, content?: unknown];
    return Slot.untyped(component, props, content);
  }

  /**
   * A slot of a component the generated declarations do not know (a remote added at run time through
   * REMOTES_CONFIG, a name read from configuration): checked at run time only, at registration and in the host.
   */
  static untyped(component: string, props: Record<string, unknown> | null = {}, content: unknown = null): Slot {
    if (typeof component !== 'string' || !COMPONENT_NAME_PATTERN.test(component)) {
      throw new InvalidSlotError(
        `Slot component must be a non-empty name matching ${COMPONENT_NAME_PATTERN}, got ${describe(component)}.`,
      );
    }
    const givenProps = props ?? {};
    if (!isPlainObject(givenProps)) {
      throw new InvalidSlotError(`Slot "${component}": props must be a plain object, got ${describe(givenProps)}.`);
    }
    const reserved = RESERVED_PROP_NAMES.find((name) => Object.hasOwn(givenProps, name));
    if (reserved !== undefined) {
      throw new InvalidSlotError(
        `Slot "${component}": the prop "${reserved}" is reserved by React and would never reach the component; ` +
          'rename it.',
      );
    }
    const problem = findNonJson(givenProps);
    if (problem) throw new InvalidSlotError(`Slot "${component}": ${problem}.`);
    const bytes = new TextEncoder().encode(JSON.stringify(givenProps)).length;
    if (bytes > SLOT_PROPS_MAX_BYTES) {
      throw new InvalidSlotError(
        `Slot "${component}": props take ${bytes} bytes as JSON, more than the ${SLOT_PROPS_MAX_BYTES} allowed.`,
      );
    }
    return new Slot(component, frozenJsonCopy(givenProps as JsonObject), checkContent(component, content));
  }

  /** The entry delivered to the frontend; `content` appears only when there is some. */
  toEntry(): SlotEntry {
    const entry: SlotEntry = { component: this.component, props: this.props as JsonObject };
    if (this.content !== null) entry.content = contentToWire(this.content);
    return entry;
  }

  toJSON(): SlotEntry {
    return this.toEntry();
  }
}

const NO_PLACEMENT: Readonly<SlotPlacement> = Object.freeze({});

function checkContent(component: string, content: unknown): string | Slot | readonly Slot[] | null {
  if (content === null || content === undefined) return null;
  if (typeof content === 'string') return content;
  const slots = content instanceof Slot ? [content] : Array.isArray(content) ? content : null;
  if (slots === null || !slots.every((item) => item instanceof Slot)) {
    throw new InvalidSlotError(
      `Slot "${component}": content must be null, a string, a Slot or a list of Slots, got ${describe(content)}.`,
    );
  }
  refusePlacedContent(component, slots);
  return content instanceof Slot ? content : Object.freeze([...slots]);
}

/**
 * A slot's content is shown with it, whole: an id, an order or a visibility rule applies to a location's slots only,
 * and on a content slot it would be dropped without a word (a rule meant to keep it from anonymous callers included).
 */
function refusePlacedContent(component: string, slots: readonly Slot[]): void {
  const placed = slots.find((slot) => Object.keys(slot.placement).length > 0);
  if (placed === undefined) return;
  throw new InvalidSlotError(
    `Slot "${component}": its content slot "${placed.component}" is placed (${Object.keys(placed.placement).join(', ')}), ` +
      'but content is shown with the slot that holds it, whole: an id, an order or a visibility rule applies to a ' +
      `location's slots only. Register "${placed.component}" at the location itself, or give the rule to ` +
      `"${component}".`,
  );
}

function contentToWire(content: string | Slot | readonly Slot[]): SlotContent {
  if (typeof content === 'string') return content;
  if (content instanceof Slot) return content.toEntry();
  return content.map((slot) => slot.toEntry());
}
