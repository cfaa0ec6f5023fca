import { ruleReading } from './placements-rule-reading';

describe('ruleReading', () => {
  it('reads a rule back in words', () => {
    expect(ruleReading({ $all: [{ roles: ['operator'] }, { $not: { tenants: ['acme'] } }] })).toEqual({
      words: 'Shown to: (role operator and not tenant acme).',
    });
    expect(ruleReading({ flags: ['beta', 'new-billing'] })).toEqual({
      words: 'Shown to: flag beta or new-billing on.',
    });
  });

  it('says what is wrong with a rule of another shape, as the server says it', () => {
    const reading = ruleReading({ roles: 'editor' });
    expect(reading.words).toBeUndefined();
    expect(reading.problem).toMatch(/^Shown when: "visibleWhen.roles" must be a non-empty list of role names/);
    expect(reading.problem).toMatch(/A publish is refused with it\.$/);
  });
});
