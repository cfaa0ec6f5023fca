import { createContext, useContext } from 'react';
import type { PlacementPreviewChoices } from '../../../shared';

/**
 * The tenants and flags the server knows (the preview's choices, GET /api/placements/preview), offered as choices by
 * every rule builder of the page; null while unknown (not loaded, or refused): the builder takes names typed alone.
 */
export const RuleChoicesContext = createContext<Pick<PlacementPreviewChoices, 'tenants' | 'flags'> | null>(null);

export function useRuleChoices(): Pick<PlacementPreviewChoices, 'tenants' | 'flags'> | null {
  return useContext(RuleChoicesContext);
}
