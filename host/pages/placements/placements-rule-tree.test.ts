import type { JsonValue } from '../../../shared';
import { ruleOfTree, treeOfRule } from './placements-rule-tree';

describe('the rule builder’s tree', () => {
  it.each<[string, JsonValue]>([
    ['a condition', { roles: ['editor'] }],
    ['a negated condition (a flag off)', { $not: { flags: ['beta'] } }],
    [
      'nested groups, negated or not',
      { $all: [{ tenants: ['acme'] }, { $not: { $any: [{ roles: ['viewer'] }, { flags: ['x'] }] } }] },
    ],
    ['a group of one', { $any: [{ permissions: ['records:write'] }] }],
    ['conditions still being built', { $all: [{ roles: [] }, { $any: [] }] }],
  ])('reads %s and writes the same JSON back', (_, rule) => {
    const { tree } = treeOfRule(rule);
    expect(tree).not.toBeUndefined();
    expect(ruleOfTree(tree!)).toEqual(rule);
  });

  it('reads no rule as no tree, and writes no tree as no rule', () => {
    expect(treeOfRule(undefined)).toEqual({ tree: null });
    expect(ruleOfTree(null)).toBeUndefined();
  });

  it('leaves a rule it cannot show to the JSON, saying why', () => {
    expect(treeOfRule({ $not: { $not: { roles: ['editor'] } } }).unshown).toMatch(/a not of a not/);
    expect(treeOfRule({ roles: 'editor' }).unshown).toMatch(/must be a non-empty list .*write \["editor"\]/);
    expect(treeOfRule({ roles: ['editor'], tenants: ['acme'] }).unshown).toMatch(/where a rule has exactly one/);
    expect(treeOfRule({ $all: [{ colour: ['red'] }] }).unshown).toMatch(/colour/);
  });
});
