import { UNKNOWN_RULE_NAME } from '../../../shared';
import { ruleProblemPlace } from './rule-problem-place';

const unknown = (message: string, blocking = true) => ruleProblemPlace({ kind: UNKNOWN_RULE_NAME, message, blocking });

it('places an unknown name at the condition the builder numbers, a "not" no step of its own', () => {
  expect(unknown('"visibleWhen.tenants" names the unknown tenant "acmee"; tenants: acme, globex.')).toEqual({
    condition: '1',
    words: 'The rule names the unknown tenant "acmee"; tenants: acme, globex.',
    blocking: true,
  });
  expect(unknown('"visibleWhen.$not.$all[1].$any[0].flags" names the unknown flag "bta"; flags: beta.')).toEqual({
    condition: '2.1',
    words: 'Condition 2.1 names the unknown flag "bta"; flags: beta.',
    blocking: true,
  });
  // A rule in force naming a tenant removed since: a warning, said as such.
  expect(unknown('"visibleWhen.tenants" names the unknown tenant "initech".', false)).toMatchObject({
    blocking: false,
  });
});

it('keeps a message naming no list of the rule as it is, and is null for a problem not of the rule', () => {
  expect(unknown('the rule is odd')).toEqual({ condition: null, words: 'the rule is odd', blocking: true });
  expect(
    ruleProblemPlace({ kind: 'props-invalid', message: '"visibleWhen.tenants" looks like one', blocking: true }),
  ).toBeNull();
});
