import { fireEvent, render, screen } from '@testing-library/react';
import { NO_WORD_MESSAGE, RecordSearchForm, type RecordSearchFormProps } from './record-search-form';

/** The form of an articles list with nothing applied, but for `props`. */
function searchForm(props: Partial<RecordSearchFormProps> = {}): RecordSearchFormProps {
  return {
    resourceLabel: 'Articles',
    prefixColumnLabel: 'Title',
    applied: { kind: 'search', text: '' },
    maxLength: 200,
    onSearch: jest.fn(),
    ...props,
  };
}

const matchChoice = () => screen.getByRole<HTMLSelectElement>('combobox', { name: 'Match' });

describe('RecordSearchForm', () => {
  it('refuses a word search of no word beside the box, keeping the list, and searches once a word is typed', () => {
    const props = searchForm();
    render(<RecordSearchForm {...props} />);
    const box = screen.getByRole('searchbox', { name: 'Search articles' });
    // Any word is what a box with nothing applied matches.
    expect(matchChoice().value).toBe('search');
    for (const signs of ['%', ' - ', '"""']) {
      fireEvent.change(box, { target: { value: signs } });
      fireEvent.click(screen.getByRole('button', { name: 'Search' }));
      expect(screen.getByRole('alert').textContent).toBe(NO_WORD_MESSAGE);
      expect(box.getAttribute('aria-invalid')).toBe('true');
      expect(document.activeElement).toBe(box);
    }
    expect(props.onSearch).not.toHaveBeenCalled();

    // Typing again takes the message away; a word, even among signs, or an empty box searches.
    fireEvent.change(box, { target: { value: '% café' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    fireEvent.change(box, { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(jest.mocked(props.onSearch).mock.calls).toEqual([
      ['search', '% café'],
      ['search', ''],
    ]);
  });

  it('sends any text to the prefix search once the column is chosen, which matches signs too', () => {
    const props = searchForm();
    render(<RecordSearchForm {...props} />);
    const box = screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search articles' });
    fireEvent.change(matchChoice(), { target: { value: 'q' } });
    expect(screen.getByRole('option', { name: 'Title starts with' })).toHaveProperty('selected', true);
    expect(box.name).toBe('q');
    // What the box matches is said under it, for screen readers too.
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /whose title starts with what you type/,
    );
    fireEvent.change(box, { target: { value: '%' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(props.onSearch).toHaveBeenCalledWith('q', '%');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the search applied, of either kind, and clears that one', () => {
    const authors = { resourceLabel: 'Authors', prefixColumnLabel: 'Name' };
    const props = searchForm({ ...authors, applied: { kind: 'q', text: 'Ada' } });
    const { rerender } = render(<RecordSearchForm {...props} />);
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search authors' }).value).toBe('Ada');
    expect(matchChoice().value).toBe('q');
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(props.onSearch).toHaveBeenLastCalledWith('q', '');

    // Back to an address with a word search: the box and its kind follow.
    rerender(<RecordSearchForm {...props} applied={{ kind: 'search', text: 'lovelace' }} />);
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search authors' }).value).toBe('lovelace');
    expect(matchChoice().value).toBe('search');
  });

  it('offers only the word search when no column can be searched', () => {
    render(<RecordSearchForm {...searchForm({ resourceLabel: 'Notes', prefixColumnLabel: null })} />);
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search notes' }).name).toBe('search');
    expect(screen.queryByRole('combobox')).toBeNull();
  });
});
