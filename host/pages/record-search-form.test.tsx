import { fireEvent, render, screen } from '@testing-library/react';
import { NO_WORD_MESSAGE, RecordSearchForm } from './record-search-form';

describe('RecordSearchForm', () => {
  it('refuses a word search of no word beside the box, keeping the list, and searches once a word is typed', () => {
    const onSearch = jest.fn();
    render(
      <RecordSearchForm
        kind="words"
        resourceLabel="Articles"
        columnLabel=""
        applied=""
        maxLength={200}
        onSearch={onSearch}
      />,
    );
    const box = screen.getByRole('searchbox', { name: 'Find by any word' });
    for (const signs of ['%', ' - ', '"""']) {
      fireEvent.change(box, { target: { value: signs } });
      fireEvent.click(screen.getByRole('button', { name: 'Search' }));
      expect(screen.getByRole('alert').textContent).toBe(NO_WORD_MESSAGE);
      expect(box.getAttribute('aria-invalid')).toBe('true');
      expect(document.activeElement).toBe(box);
    }
    expect(onSearch).not.toHaveBeenCalled();

    // Typing again takes the message away; a word, even among signs, or an empty box searches.
    fireEvent.change(box, { target: { value: '% café' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    fireEvent.change(box, { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch.mock.calls).toEqual([['% café'], ['']]);
  });

  it('sends any text to the prefix search, which matches signs too', () => {
    const onSearch = jest.fn();
    render(
      <RecordSearchForm resourceLabel="Articles" columnLabel="Title" applied="" maxLength={200} onSearch={onSearch} />,
    );
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by title' }), { target: { value: '%' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalledWith('%');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
