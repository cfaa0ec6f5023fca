import { fireEvent, render, screen } from '@testing-library/react';
import type { RecordFilterDefinition } from '../../../shared';
import { RecordFiltersForm } from './record-filters-form';

const FILTERS: RecordFilterDefinition[] = [
  { name: 'group', label: 'Group', kind: 'select', options: ['News', 'Guides'] },
  { name: 'featured', label: 'Featured', kind: 'checkbox' },
];

const pendingNote = () => document.querySelector('[data-filters-pending]');
const applyButton = () => screen.getByRole('button', { name: 'Apply filters' });

describe('RecordFiltersForm', () => {
  // First: React says a warning once per component, so a later test would not hear it.
  it('renders its choices without a warning from React (a key spread into JSX with the props)', () => {
    const warnings = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      render(<RecordFiltersForm resourceLabel="Articles" filters={FILTERS} applied={{}} onApply={jest.fn()} />);
      expect(warnings).not.toHaveBeenCalled();
    } finally {
      warnings.mockRestore();
    }
  });

  it('says when a choice is not applied yet, and stops saying it once applied or chosen back', () => {
    const onApply = jest.fn();
    const view = render(
      <RecordFiltersForm resourceLabel="Articles" filters={FILTERS} applied={{}} onApply={onApply} />,
    );
    expect(pendingNote()).toBeNull();
    expect(applyButton().getAttribute('aria-describedby')).toBeNull();

    fireEvent.change(screen.getByLabelText('Group'), { target: { value: 'News' } });
    expect(pendingNote()?.textContent).toBe('Not applied yet: the list shows every record.');
    expect(applyButton().getAttribute('aria-describedby')).toBe(pendingNote()?.id);

    // Chosen back to Any: nothing differs from what the list shows.
    fireEvent.change(screen.getByLabelText('Group'), { target: { value: '' } });
    expect(pendingNote()).toBeNull();

    fireEvent.change(screen.getByLabelText('Group'), { target: { value: 'News' } });
    fireEvent.click(applyButton());
    expect(onApply).toHaveBeenCalledWith({ group: 'News' });
    view.rerender(
      <RecordFiltersForm resourceLabel="Articles" filters={FILTERS} applied={{ group: 'News' }} onApply={onApply} />,
    );
    expect(pendingNote()).toBeNull();

    // A page turned (the same filters applied, a new object) keeps a pending choice, and keeps saying so.
    fireEvent.change(screen.getByLabelText('Featured'), { target: { value: 'true' } });
    view.rerender(
      <RecordFiltersForm resourceLabel="Articles" filters={FILTERS} applied={{ group: 'News' }} onApply={onApply} />,
    );
    expect((screen.getByLabelText('Featured') as HTMLSelectElement).value).toBe('true');
    expect(pendingNote()?.textContent).toBe('Not applied yet: the list shows the filters applied before.');
  });

  it('leaves the focus on Apply filters when Clear filters, which goes with the filters, is pressed', () => {
    const onApply = jest.fn();
    const view = render(
      <RecordFiltersForm resourceLabel="Articles" filters={FILTERS} applied={{ group: 'News' }} onApply={onApply} />,
    );
    const clear = screen.getByRole('button', { name: 'Clear filters' });
    clear.focus();
    fireEvent.click(clear);
    expect(onApply).toHaveBeenCalledWith({});
    // The list applies none: Clear filters is gone, and the focus is beside where it was, not on the page's body.
    view.rerender(<RecordFiltersForm resourceLabel="Articles" filters={FILTERS} applied={{}} onApply={onApply} />);
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
    expect(document.activeElement).toBe(applyButton());
  });
});
