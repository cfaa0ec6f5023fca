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
  ])('%s -> %s', (input, slug) => expect(slugify(input)).toBe(slug));

  it('keeps slugs to 80 characters without a trailing dash', () => {
    const slug = slugify(`${'word '.repeat(30)}`);
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith('-')).toBe(false);
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
    fireEvent.click(screen.getByRole('button', { name: 'Use as slug' }));
    expect(screen.getByTestId('slug').textContent).toBe('spring-launch-2025');
    expect((screen.getByRole('button') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('button').textContent).toBe('“slug” is up to date');
  });

  it('offers nothing to write while the source is empty', () => {
    render(<Form initial={{ title: '', slug: 'old' }} />);
    expect((screen.getByRole('button') as HTMLButtonElement).disabled).toBe(true);
  });
});
