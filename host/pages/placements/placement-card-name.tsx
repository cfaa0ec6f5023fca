import { isPlainObject } from '../../../shared';
import type { DraftSlot } from './placements-draft';

/** Props whose text reads as what a component shows (a banner's title): shown in its card's heading. */
const SHOWN_PROPS = ['title', 'heading', 'label', 'name', 'text', 'message'];

/** The longest prop text a heading shows before it is cut with "…". */
const SHOWN_PROP_LENGTH = 40;

/**
 * What tells a card of the placements editor apart from others of the same component, besides its number: its id
 * when it has one, and the text of the first prop that reads as what it shows (`id "promo"`, `“Due this week”`).
 */
export function cardDetails(slot: DraftSlot): string[] {
  const details = typeof slot.id === 'string' && slot.id !== '' ? [`id "${slot.id}"`] : [];
  const props = isPlainObject(slot.props) ? slot.props : {};
  const shown = SHOWN_PROPS.map((key) => props[key]).find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  if (shown !== undefined) {
    const text = shown.trim();
    details.push(`“${text.length > SHOWN_PROP_LENGTH ? `${text.slice(0, SHOWN_PROP_LENGTH - 1)}…` : text}”`);
  }
  return details;
}

export interface CardNameProps {
  /** The card's name, shown: `Banner (team_marketing) #2`. */
  name: string;
  /** Where the card is, said to screen readers only (its section's heading shows it): makes the name unique. */
  where: string;
}

/**
 * A card's name in the labels of its controls (`Priority of Banner (team_marketing) #2`), with where it is for
 * screen readers (` at header-banner`): two cards' controls never share a name on the page, in the form controls
 * list of a screen reader as on screen.
 */
export function CardName({ name, where }: CardNameProps) {
  return (
    <>
      {name}
      <span className="visually-hidden"> {where}</span>
    </>
  );
}
