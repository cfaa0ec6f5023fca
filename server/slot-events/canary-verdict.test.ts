import { canaryVerdict } from './canary-verdict';

const VERSIONS = { canary: '2.0.0', stable: '1.0.0' };
const SETTINGS = { minLoads: 50, margin: 0.05 };

it('says nothing below the minimum number of canary loads, however bad', () => {
  expect(canaryVerdict(VERSIONS, { loads: 49, failures: 49 }, { loads: 1000, failures: 0 }, SETTINGS)).toEqual({
    rollBack: false,
  });
});

it('keeps a canary within the margin of the stable release', () => {
  expect(canaryVerdict(VERSIONS, { loads: 100, failures: 14 }, { loads: 1000, failures: 100 }, SETTINGS)).toEqual({
    rollBack: false,
  });
  expect(canaryVerdict(VERSIONS, { loads: 100, failures: 15 }, { loads: 1000, failures: 100 }, SETTINGS).rollBack).toBe(
    false,
  );
});

it('rolls back a canary over the margin, saying what it measured', () => {
  expect(canaryVerdict(VERSIONS, { loads: 100, failures: 30 }, { loads: 400, failures: 4 }, SETTINGS)).toEqual({
    rollBack: true,
    reason: 'canary 2.0.0 failed 30.0 % of 100 loads, stable 1.0.0 1.0 % of 400: more than 5.0 points worse',
  });
  // No stable load in the window: the stable release counts as never failing.
  expect(canaryVerdict(VERSIONS, { loads: 50, failures: 5 }, { loads: 0, failures: 0 }, SETTINGS).rollBack).toBe(true);
});
