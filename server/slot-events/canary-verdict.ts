import type { CanaryRollbackSettings } from './slot-event-settings';

/** The loads of one release in the window compared: those judged (not hidden) and those that failed or timed out. */
export interface ReleaseLoads {
  loads: number;
  failures: number;
}

export type CanaryVerdict = { rollBack: false } | { rollBack: true; reason: string };

/**
 * Whether a canary fails enough more often than its stable release to be rolled back: it needs `minLoads` judged
 * loads in the window (fewer say nothing), and a failure rate above the stable one's by more than `margin`. A stable
 * release with no load in the window counts as failing never.
 */
export function canaryVerdict(
  versions: { canary: string; stable: string },
  canary: ReleaseLoads,
  stable: ReleaseLoads,
  settings: Pick<CanaryRollbackSettings, 'minLoads' | 'margin'>,
): CanaryVerdict {
  if (canary.loads < settings.minLoads) return { rollBack: false };
  const canaryRate = canary.failures / canary.loads;
  const stableRate = stable.loads === 0 ? 0 : stable.failures / stable.loads;
  if (canaryRate - stableRate <= settings.margin) return { rollBack: false };
  const percent = (rate: number) => `${(rate * 100).toFixed(1)} %`;
  return {
    rollBack: true,
    reason:
      `canary ${versions.canary} failed ${percent(canaryRate)} of ${canary.loads} loads, stable ${versions.stable} ` +
      `${percent(stableRate)} of ${stable.loads}: more than ${(settings.margin * 100).toFixed(1)} points worse`,
  };
}
