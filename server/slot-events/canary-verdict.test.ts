import { canaryVerdict, type JudgedSlot } from './canary-verdict';

const VERSIONS = { canary: '2.0.0', stable: '1.0.0' };
const SETTINGS = { minLoads: 50, margin: 0.05 };

/**
 * A slot of the canary: its loads and failures, and the stable release's on the same slot (null: never loaded);
 * the failures are its code's unless a third number says how many of them were (the rest: its files not loading).
 */
function slot(
  component: string,
  canary: [loads: number, failures: number, codeFailures?: number],
  stable: [loads: number, failures: number, codeFailures?: number] | null,
): JudgedSlot {
  return {
    location: 'header-banner',
    component,
    loads: canary[0],
    failures: canary[1],
    codeFailures: canary[2] ?? canary[1],
    stable: stable && { loads: stable[0], failures: stable[1], codeFailures: stable[2] ?? stable[1] },
  };
}

it('says nothing below the minimum number of canary loads, however bad', () => {
  expect(canaryVerdict(VERSIONS, [slot('Banner', [49, 49], [1000, 0])], SETTINGS)).toEqual({ rollBack: false });
});

it('keeps a canary within the margin of the stable release', () => {
  expect(canaryVerdict(VERSIONS, [slot('Banner', [100, 14], [1000, 100])], SETTINGS)).toEqual({ rollBack: false });
  expect(canaryVerdict(VERSIONS, [slot('Banner', [100, 15], [1000, 100])], SETTINGS).rollBack).toBe(false);
});

it('rolls back a canary over the margin, saying what it measured and which slot fails most', () => {
  expect(
    canaryVerdict(VERSIONS, [slot('Banner', [100, 30], [400, 4]), slot('Note', [100, 2], [100, 2])], SETTINGS),
  ).toEqual({
    rollBack: true,
    reason:
      'canary 2.0.0 failed 16.0 % of 200 loads, where stable 1.0.0 fails 1.5 % on the same slots (500 loads): ' +
      'more than 5.0 points worse; most of all Banner at header-banner (30 of 100 failed, stable 1.0 %)',
  });
});

it('judges the same slots, weighted as the canary loads them: not which pages each group opened', () => {
  // A slot failing half the time on both releases, opened mostly by the canary's visitors, and one that never
  // fails, opened mostly by the stable release's: pooled, 45 % against 9 %; slot by slot, the same release.
  const unchanged = [slot('Broken', [90, 45], [10, 5]), slot('Fine', [10, 0], [90, 0])];
  expect(canaryVerdict(VERSIONS, unchanged, SETTINGS)).toEqual({ rollBack: false });
  // The same mix, the canary's Fine now failing a third of the time: worse on the same slots.
  const worse = [slot('Broken', [90, 45], [10, 5]), slot('Fine', [30, 10], [90, 0])];
  expect(canaryVerdict(VERSIONS, worse, SETTINGS).rollBack).toBe(true);
});

it('counts a slot the stable release never loaded as never failing there: its failures are the canary’s', () => {
  const verdict = canaryVerdict(VERSIONS, [slot('NewCard', [50, 5], null)], SETTINGS);
  expect(verdict).toEqual({
    rollBack: true,
    reason:
      'canary 2.0.0 failed 10.0 % of 50 loads, where stable 1.0.0 fails 0.0 % on the same slots (0 loads): ' +
      'more than 5.0 points worse; most of all NewCard at header-banner (5 of 50 failed, new with the canary)',
  });
});

it('rolls back a canary failing in its code while an outage of the stable release’s origin raised its rate', () => {
  // The stable release: 30 of 76 failed, all of them its manifest not loading (its origin down for a minute).
  const masked = [slot('SystemStatus', [60, 12], [76, 30, 0])];
  expect(canaryVerdict(VERSIONS, masked, SETTINGS)).toEqual({
    rollBack: true,
    reason:
      'canary 2.0.0 failed 20.0 % of 60 loads in its code (init, factory, render; its files loading left aside), ' +
      'where stable 1.0.0 fails 0.0 % on the same slots (76 loads): more than 5.0 points worse; most of all ' +
      'SystemStatus at header-banner (12 of 60 failed, stable 0.0 %)',
  });
  // An outage both releases share (the same origin) is neither's fault: nothing to roll back.
  expect(canaryVerdict(VERSIONS, [slot('SystemStatus', [60, 24, 0], [76, 30, 0])], SETTINGS)).toEqual({
    rollBack: false,
  });
  // A canary whose own files do not load is rolled back on all its failures, as before.
  expect(canaryVerdict(VERSIONS, [slot('SystemStatus', [60, 30, 0], [76, 1, 1])], SETTINGS).rollBack).toBe(true);
});
