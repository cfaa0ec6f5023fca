import { render, screen } from '@testing-library/react';
import type { FormContext } from '../../kit';
import { DESCRIPTION_LIMIT, SearchSnippetPreview, TITLE_LIMIT, truncate } from './SearchSnippetPreview';

describe('truncate', () => {
  it('keeps a text within the limit whole, its whitespace collapsed', () => {
    expect(truncate('  A   short\n title ', TITLE_LIMIT)).toBe('A short title');
  });

  it('cuts at a word boundary with an ellipsis', () => {
    expect(truncate(`${'word '.repeat(20)}`, 30)).toBe('word word word word word…');
  });

  it('counts characters as the server does, and never cuts an emoji in half', () => {
    // 60 emoji are 120 UTF-16 units: within the title's 60 characters, shown whole.
    expect(truncate('🎉'.repeat(60), TITLE_LIMIT)).toBe('🎉'.repeat(60));
    const cut = truncate('🎉'.repeat(61), TITLE_LIMIT);
    expect(cut).toBe(`${'🎉'.repeat(59)}…`);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    // A flag is two code points: never one of them alone.
    expect(truncate('🇫🇷'.repeat(31), TITLE_LIMIT)).toBe(`${'🇫🇷'.repeat(29)}…`);
  });
});

describe('SearchSnippetPreview', () => {
  function renderWith(values: Record<string, string>) {
    const formContext: FormContext = { mode: 'edit', values, errors: {}, setValue: () => undefined };
    render(<SearchSnippetPreview resource="articles" formContext={formContext} titleField="title" bodyField="body" />);
  }

  it('counts the title and description in characters, an emoji one', () => {
    renderWith({ title: '🎉'.repeat(150), body: 'é'.repeat(10) });
    expect(screen.getByText(/^Title/).textContent).toBe(
      `Title 150/${TITLE_LIMIT} (will be cut) · Description 10/${DESCRIPTION_LIMIT}`,
    );
  });
});
