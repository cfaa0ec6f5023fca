import { canaryVerdict, criticalZ, excessZ, normalTail, Z_99, type CanaryEvidence } from './canary-verdict';

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
  // One slot: the remote's figures are its own.
  const slots = [{ slot: 'Banner at header-banner', canary: share(canary), stable: share(stable) }];
  return { canary: share(canary), stable: share(stable), worstSlot, slots };
}

/** Evidence of several slots: [name, canary [visitors, failed], stable [visitors, failed]], the remote's given. */
function slotsEvidence(
  whole: { canary: [number, number]; stable: [number, number] },
  slots: [string, [number, number], [number, number]][],
): CanaryEvidence {
  const share = ([visitors, failed]: [number, number]) => ({ visitors, failed, codeFailed: failed });
  return {
    canary: share(whole.canary),
    stable: share(whole.stable),
    worstSlot: `${slots[0]![0]} (…)`,
    slots: slots.map(([slot, canary, stable]) => ({ slot, canary: share(canary), stable: share(stable) })),
  };
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

it('judges slot by slot too: a slot failing on both releases for everyone hides no slot the canary breaks', () => {
  // Broken fails for every visitor of both releases, so every visitor of the remote failed on each: the remote's
  // shares are equal. Hello works on the stable release and fails for every canary visitor.
  const evidence = slotsEvidence({ canary: [11, 11], stable: [12, 12] }, [
    ['Broken at dashboard-before-cards', [11, 11], [12, 12]],
    ['Hello at dashboard-before-cards', [11, 11], [12, 0]],
  ]);
  const verdict = canaryVerdict(VERSIONS, evidence, SETTINGS);
  expect(verdict).toEqual({
    rollBack: true,
    reason: expect.stringMatching(
      /^canary 2\.0\.0: on Hello at dashboard-before-cards, 11 of 11 visitors \(100\.0 %\) saw a failure, where stable 1\.0\.0: 0 of 12 \(0\.0 %\) on it: more than 5\.0 points worse at 99 % confidence over the 2 slots judged one by one \(z = \d+\.\d\d, beyond 2\.58\)$/,
    ),
  });
});

it('asks more of each slot the more slots it judges, and judges none with too few visitors of its own', () => {
  // 8 of 20 against 1 of 40: z = 2.83, beyond 2.326 for one slot, short of the 2.94 that six slots ask.
  const alongside = (count: number): [string, [number, number], [number, number]][] =>
    Array.from({ length: count }, (_, index) => [`Other${index} at header-banner`, [20, 20], [40, 40]]);
  const whole = { canary: [20, 20] as [number, number], stable: [40, 40] as [number, number] };
  const banner: [string, [number, number], [number, number]] = ['Banner at header-banner', [20, 8], [40, 1]];
  expect(canaryVerdict(VERSIONS, slotsEvidence(whole, [banner, ...alongside(1)]), SETTINGS).rollBack).toBe(true);
  expect(canaryVerdict(VERSIONS, slotsEvidence(whole, [banner, ...alongside(5)]), SETTINGS)).toEqual({
    rollBack: false,
  });
  // Nine canary visitors of a slot failing for all of them: below the minimum, as for the whole remote.
  const few: [string, [number, number], [number, number]] = ['Hello at header-banner', [9, 9], [40, 0]];
  expect(canaryVerdict(VERSIONS, slotsEvidence(whole, [few, ...alongside(1)]), SETTINGS)).toEqual({
    rollBack: false,
  });
});

it('knows the normal distribution well enough for the critical values it asks', () => {
  expect(normalTail(0)).toBeCloseTo(0.5, 6);
  expect(normalTail(-1.96)).toBeCloseTo(0.975, 4);
  expect(criticalZ(0.01)).toBeCloseTo(Z_99, 3);
  expect(criticalZ(0.05)).toBeCloseTo(1.645, 3);
  expect(criticalZ(0.001)).toBeCloseTo(3.09, 3);
  expect(criticalZ(0.01 / 6)).toBeCloseTo(2.935, 3);
});
