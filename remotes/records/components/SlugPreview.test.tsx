import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import type { FormContext, JsonValue } from '../../kit';
import { SlugPreview, slugify } from './SlugPreview';

describe('slugify', () => {
  it.each([
    ['Hello, World!', 'hello-world'],
    ['  Crème brûlée à la carte ', 'creme-brulee-a-la-carte'],
    ['---', ''],
    ['Ünïcödé & Co.', 'unicode-co'],
    // Letters that do not decompose are spelled as the word search folds them (shared/undecomposed-letters.ts).
    ['Ünïcødé', 'unicode'],
    ['Søren Ærø, Straße', 'soren-aero-strasse'],
    ['Łódź Œuvre Þór Đorđe Ðan Kıyı', 'lodz-oeuvre-thor-dorde-dan-kiyi'],
    // Every script's letters and digits are kept: a title in one of them had no slug, or only its digits.
    ['Москва отчёт', 'москва-отчёт'],
    ['Йошкар-Ола: ПЛАН', 'йошкар-ола-план'],
    ['東京の天気', '東京の天気'],
    ['3 مقالات جديدة', '3-مقالات-جديدة'],
    ['מה חדש?', 'מה-חדש'],
    ['Ἀθῆναι 2026', 'ἀθῆναι-2026'],
    ['नमस्ते दुनिया', 'नमस्ते-दुनिया'],
    ['٣ أخبار', '٣-أخبار'],
    // NFKC: half-width and full-width forms as their ordinary letters; a Persian word's joiner splits nothing.
    ['ｶﾞｲﾄﾞ ＡＢＣ１', 'ガイド-abc1'],
    ['می\u200cخواهم', 'میخواهم'],
    ['🚀 Launch!', 'launch'],
  ])('%s -> %s', (input, slug) => expect(slugify(input)).toBe(slug));

  it('keeps slugs to 80 characters without a trailing dash', () => {
    const slug = slugify(`${'word '.repeat(30)}`);
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith('-')).toBe(false);
  });

  it('never cuts a letter from its vowel sign at the 80th character', () => {
    // नि is two code points: the 80th and 81st.
    const slug = slugify(`${'a'.repeat(79)}नि`);
    expect(slug).toBe('a'.repeat(79));
    expect(slugify(`${'a'.repeat(78)}नि`)).toBe(`${'a'.repeat(78)}नि`);
  });
});

function Form({ initial }: { initial: Record<string, JsonValue> }) {
  const [values, setValues] = useState(initial);
  const formContext: FormContext = {
    mode: 'edit',
    values,
    errors: {},
    setValue: (name, value) => setValues((current) => ({ ...current, [name]: value })),
  };
  return (
    <>
      <SlugPreview resource="articles" formContext={formContext} source="title" target="slug" />
      <output data-testid="slug">{String(values.slug)}</output>
    </>
  );
}

describe('SlugPreview', () => {
  it('previews the slug of the source field and writes it into the target field on request', () => {
    render(<Form initial={{ title: 'Spring Launch 2025!', slug: '' }} />);
    expect(screen.getByText('spring-launch-2025')).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Use as slug' });
    button.focus();
    fireEvent.click(button);
    expect(screen.getByTestId('slug').textContent).toBe('spring-launch-2025');
    expect(screen.getByRole('button').getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('button').textContent).toBe('“slug” is up to date');
    // The keyboard user stays on the button, told its new state: a disabled button lost the focus to the body.
    expect(document.activeElement).toBe(screen.getByRole('button'));
    expect((screen.getByRole('button') as HTMLButtonElement).disabled).toBe(false);
  });

  it('offers nothing to write while the source is empty: pressed, it changes nothing', () => {
    render(<Form initial={{ title: '', slug: 'old' }} />);
    expect(screen.getByRole('button').getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByTestId('slug').textContent).toBe('old');
  });
});
