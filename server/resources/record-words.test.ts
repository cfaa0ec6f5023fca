import { recordWords, scopeWord, splitWords, valueWord } from './record-words';

/** The words of texts and of searches, split alike: what both engines are handed. */
describe('splitWords', () => {
  it('folds case and accents, so staff can type a name without them', () => {
    expect(splitWords('García Müller')).toEqual(['garcia', 'muller']);
    for (const search of ['garcia', 'GARCÍA', 'García', 'Garcia']) expect(splitWords(search)).toEqual(['garcia']);
    expect(splitWords('Müll')).toEqual(['mull']);
    // Decomposed input (e + U+0301) and full-width letters fold alike.
    expect(splitWords('Cafe\u0301 ＣＡＦＥ')).toEqual(['cafe', 'cafe']);
    expect(splitWords('İstanbul Ångström Čapek Nguyễn')).toEqual(['istanbul', 'angstrom', 'capek', 'nguyen']);
  });

  it('writes the Latin letters that do not decompose as they are typed without their accent', () => {
    expect(splitWords('Straße STRASSE Grüße')).toEqual(['strasse', 'strasse', 'grusse']);
    expect(splitWords('Ærøskøbing Œuvre Łódź Đorđe Þór Guðrún ıi ẞ')).toEqual([
      'aeroskobing',
      'oeuvre',
      'lodz',
      'dorde',
      'thor',
      'gudrun',
      'ii',
      'ss',
    ]);
  });

  it('keeps the marks of scripts whose letters they are (Devanagari), and their words whole', () => {
    expect(splitWords('हिन्दी काम')).toEqual(['हिन्दी', 'काम']);
    // Without its vowel sign, "कम" (less) is another word than "काम" (work): neither starts the other.
    expect(splitWords('कम')).toEqual(['कम']);
    expect(splitWords('काम')[0]?.startsWith('कम')).toBe(false);
  });

  it('cuts a word at 60 code points once folded, the same for a text and a search', () => {
    const long = `${'é'.repeat(59)}ß${'x'.repeat(10)}`;
    const [word] = splitWords(long);
    expect(word).toBe(`${'e'.repeat(59)}s`);
    expect(splitWords(long.toUpperCase())).toEqual([word]);
  });

  it('makes no word of a lone combining mark', () => {
    expect(splitWords('a \u0301 b')).toEqual(['a', 'b']);
    expect(splitWords('\u0301\u0308')).toEqual([]);
  });
});

describe('recordWords', () => {
  it('indexes folded words, while value words keep the value as it is (filters match it exactly)', () => {
    expect(recordWords('acme', 'authors', { id: 3, title: 'José Núñez', group: 'Équipe' })).toEqual([
      scopeWord('acme', 'authors'),
      'jose',
      'nunez',
      valueWord('title', 'José Núñez'),
      'equipe',
      valueWord('group', 'Équipe'),
    ]);
  });
});
