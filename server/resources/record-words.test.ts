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

  it('splits the scripts written without spaces into their words, a text and a search alike', () => {
    // One run of characters was one word: a search found only its start (東京, never 会議).
    expect(splitWords('東京都庁の会議室')).toEqual(['東京', '都庁', 'の', '会議', '室']);
    expect(splitWords('北京大学生前来应聘')).toContain('应聘');
    expect(splitWords('ภาษาไทยง่ายนิดเดียว')).toEqual(['ภาษา', 'ไทย', 'ง่าย', 'นิด', 'เดียว']);
    expect(splitWords('日本語のテキスト検索')).toEqual(['日本語', 'の', 'テキスト', '検索']);
    // Half-width katakana fold to full width first (NFKC), so both spellings give the same words.
    expect(splitWords('ﾃｷｽﾄ検索')).toEqual(splitWords('テキスト検索'));
    // Latin letters beside them are their own word; Korean, written with spaces, keeps its words whole.
    expect(splitWords('Tokyo東京2026')).toEqual(['tokyo', '東京', '2026']);
    expect(splitWords('카카오톡 메시지')).toEqual(['카카오톡', '메시지']);
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
