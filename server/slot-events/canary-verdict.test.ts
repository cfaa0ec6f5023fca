import { canaryVerdict, excessZ, Z_99, type CanaryEvidence } from './canary-verdict';

const VERSIONS = { canary: '2.0.0', stable: '1.0.0' };
const SETTINGS = { minVisitors: 10, margin: 0.05 };

/** Visitors of each release: [visitors, failed, codeFailed (default: failed)]. */
function evidence(
  canary: [number, number, number?],
  stable: [number, number, number?],
  worstSlot = 'Banner at header-banner (1 of 1 visitors failed)',
): CanaryEvidence {
  const share = ([visitors, failed, codeFailed]: [number, number, number?]) => ({
    visitors,
    failed,
    codeFailed: codeFailed ?? failed,
  });
  return { canary: share(canary), stable: share(stable), worstSlot };
}

it('says nothing below the minimum number of distinct canary visitors, however bad', () => {
  expect(canaryVerdict(VERSIONS, evidence([9, 9], [100, 0]), SETTINGS)).toEqual({ rollBack: false });
});

it('never lets one visitor end a canary alone, even with no minimum: 1 failing of 1 is not significant at 99 %', () => {
  expect(excessZ({ visitors: 1, failed: 1 }, { visitors: 1000, failed: 0 }, 0.05)).toBeLessThan(Z_99);
  expect(excessZ({ visitors: 1, failed: 1 }, { visitors: 0, failed: 0 }, 0)).toBeLessThan(Z_99);
  expect(canaryVerdict(VERSIONS, evidence([1, 1], [100, 0]), { minVisitors: 1, margin: 0 })).toEqual({
    rollBack: false,
  });
});

it('keeps a canary whose excess is within the margin or not significant', () => {
  // 14 % against 10 %: within 5 points, however many visitors.
  expect(canaryVerdict(VERSIONS, evidence([1000, 140], [1000, 100]), SETTINGS)).toEqual({ rollBack: false });
  // 3 of 10 against 0 of 10: 30 points more, but ten visitors each do not show it at 99 %.
  expect(canaryVerdict(VERSIONS, evidence([10, 3], [10, 0]), SETTINGS)).toEqual({ rollBack: false });
});

it('rolls back a canary significantly worse, saying what it measured and which slot fails most', () => {
  expect(
    canaryVerdict(VERSIONS, evidence([20, 8], [40, 1], 'Banner at header-banner (8 of 20 visitors failed)'), SETTINGS),
  ).toEqual({
    rollBack: true,
    reason:
      'canary 2.0.0: 8 of 20 visitors (40.0 %) saw a failure, where stable 1.0.0: 1 of 40 (2.5 %) on the same ' +
      'slots: more than 5.0 points worse at 99 % confidence (z = 2.83); most of all Banner at header-banner ' +
      '(8 of 20 visitors failed)',
  });
});

it('compares the failures of the code alone too: an outage of the stable origin hides no broken canary', () => {
  // The stable release's origin was down for most of its visitors; the canary throws in its code for half of its own.
  const verdict = canaryVerdict(VERSIONS, evidence([20, 10, 10], [20, 15, 0]), SETTINGS);
  expect(verdict.rollBack).toBe(true);
  expect(verdict.rollBack && verdict.reason).toContain('saw a failure in its code');
});

it('judges slots new with the canary against no failure', () => {
  expect(canaryVerdict(VERSIONS, evidence([10, 5], [0, 0]), SETTINGS)).toEqual(
    expect.objectContaining({ rollBack: true, reason: expect.stringContaining('had no visitor of these slots') }),
  );
});
