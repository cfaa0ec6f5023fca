import type { RolloutStep } from '../../shared';

/** The most steps a plan has, and the longest a step may be held (a week): a typo must not hold a canary for years. */
export const MAX_ROLLOUT_STEPS = 10;
export const MAX_STEP_MINUTES = 7 * 24 * 60;

/**
 * A plan's steps as a request gives them, checked: 2 to 10 steps, each share a whole number above the one before and
 * the last 100 (it activates the release), minutes from 0 to a week, visitors a whole number from 0. Resolves to the
 * steps, or a message naming the first step and field at fault.
 */
export function parseRolloutSteps(value: unknown): RolloutStep[] | string {
  if (!Array.isArray(value) || value.length < 2 || value.length > MAX_ROLLOUT_STEPS) {
    return `"steps" must be a list of 2 to ${MAX_ROLLOUT_STEPS} steps like {"share": 5, "minutes": 10}, the last one's share 100.`;
  }
  const steps: RolloutStep[] = [];
  for (const [index, item] of value.entries()) {
    const where = `steps[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return `${where} must be an object like {"share": 5, "minutes": 10}.`;
    }
    const { share, minutes, visitors = 0, ...rest } = item as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) return `${where}: unknown key(s) ${unknown.join(', ')}; allowed: share, minutes, visitors.`;
    const previous = steps.at(-1)?.share ?? 0;
    if (typeof share !== 'number' || !Number.isInteger(share) || share <= previous || share > 100) {
      return `${where}.share must be a whole number above ${previous} (the step before) and at most 100, got ${JSON.stringify(share)}.`;
    }
    if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes < 0 || minutes > MAX_STEP_MINUTES) {
      return `${where}.minutes must be a number from 0 to ${MAX_STEP_MINUTES} (a week), got ${JSON.stringify(minutes)}.`;
    }
    if (typeof visitors !== 'number' || !Number.isInteger(visitors) || visitors < 0) {
      return `${where}.visitors must be a whole number from 0, got ${JSON.stringify(visitors)}.`;
    }
    steps.push({ share, minutes, visitors });
  }
  if (steps.at(-1)!.share !== 100) {
    return `The last step's share must be 100 (it activates the release), got ${steps.at(-1)!.share}.`;
  }
  return steps;
}
