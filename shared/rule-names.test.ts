import { namesInRule, unknownNamesMessage } from './index';

describe('namesInRule', () => {
  it('finds every list of one kind of name, in the order written, with its path', () => {
    const rule = {
      $any: [
        { tenants: ['acme'] },
        { $all: [{ flags: ['beta'] }, { $not: { tenants: ['globex', 'initech'] } }] },
        { roles: ['operator'] },
      ],
    };
    expect(namesInRule(rule, 'tenants')).toEqual([
      { path: 'visibleWhen.$any[0].tenants', names: ['acme'] },
      { path: 'visibleWhen.$any[1].$all[1].$not.tenants', names: ['globex', 'initech'] },
    ]);
    expect(namesInRule(rule, 'flags')).toEqual([{ path: 'visibleWhen.$any[1].$all[0].flags', names: ['beta'] }]);
    expect(namesInRule(rule, 'permissions')).toEqual([]);
  });
});

describe('unknownNamesMessage', () => {
  it('names each unknown name once, and the known ones', () => {
    expect(unknownNamesMessage('tenants', ['acmee'], ['acme', 'globex'])).toBe(
      'names the unknown tenant "acmee"; tenants: acme, globex.',
    );
    expect(unknownNamesMessage('tenants', ['acmee', 'globexx', 'acmee'], ['acme', 'globex'])).toBe(
      'names the unknown tenants "acmee", "globexx"; tenants: acme, globex.',
    );
  });

  it('lists the first ten known names and a count of the others', () => {
    const known = Array.from({ length: 12 }, (_, index) => `t${index}`);
    expect(unknownNamesMessage('tenants', ['t99'], known)).toBe(
      'names the unknown tenant "t99"; tenants: t0, t1, t2, t3, t4, t5, t6, t7, t8, t9 and 2 more.',
    );
  });

  it('says how a flag comes to exist, also when none does yet', () => {
    expect(unknownNamesMessage('flags', ['no-such-flag'], [])).toBe(
      'names the unknown flag "no-such-flag"; flags: none yet. A flag exists once it is set, on or off: npm run ' +
        'flag -- set <name> off.',
    );
  });
});
