import { UNKNOWN_RULE_NAME } from '../../../shared';
import { ruleProblemPlace } from './rule-problem-place';

const unknown = (message: string) => ruleProblemPlace({ kind: UNKNOWN_RULE_NAME, message });

it('places an unknown name at the condition the builder numbers, a "not" no step of its own', () => {
  expect(unknown('"visibleWhen.tenants" names the unknown tenant "acmee"; tenants: acme, globex.')).toEqual({
    condition: '1',
    words: 'The rule names the unknown tenant "acmee"; tenants: acme, globex.',
  });
  expect(unknown('"visibleWhen.$not.$all[1].$any[0].flags" names the unknown flag "bta"; flags: beta.')).toEqual({
    condition: '2.1',
    words: 'Condition 2.1 names the unknown flag "bta"; flags: beta.',
  });
});

it('keeps a message naming no list of the rule as it is, and is null for a problem not of the rule', () => {
  expect(unknown('the rule is odd')).toEqual({ condition: null, words: 'the rule is odd' });
  expect(ruleProblemPlace({ kind: 'props-invalid', message: '"visibleWhen.tenants" looks like one' })).toBeNull();
});
