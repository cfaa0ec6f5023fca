import { spellUndecomposedLetters } from './undecomposed-letters';

describe('letters that do not decompose', () => {
  it('are spelled plainly, other letters left as they are', () => {
    expect(spellUndecomposedLetters('søren ærø, straße, łódź, œuvre, þór, đorđe, ðan, kıyı')).toBe(
      'soren aero, strasse, lódź, oeuvre, thór, dorde, dan, kiyi',
    );
  });
});
