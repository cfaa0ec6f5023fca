import type { SlotMap } from '../../shared';

/**
 * Reads the public slots from the JSON text of GET /slots, parsing only when the text changes (the registry
 * rebuilds it once per registration, so almost every call answers from the last parse). Anything unreadable
 * counts as no slots: hints are an optimisation and never stop index.html from being served.
 */
export function createPublicSlotsReader(publicSlots: () => string): () => SlotMap {
  let lastText: string | null = null;
  let lastSlots: SlotMap = {};
  return () => {
    const text = publicSlots();
    if (text !== lastText) {
      lastText = text;
      try {
        const slots = (JSON.parse(text) as { slots?: unknown } | null)?.slots;
        lastSlots = slots !== null && typeof slots === 'object' && !Array.isArray(slots) ? (slots as SlotMap) : {};
      } catch {
        lastSlots = {};
      }
    }
    return lastSlots;
  };
}
