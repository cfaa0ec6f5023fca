import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { ListSettings } from './list-settings';
import { DEFAULT_LIST_PREFERENCES, type ListPreferences } from './list-preferences';

/**
 * Rows per page as a keyboard moves through its choices: Chromium changes a closed drop-down's value, and fires
 * `change`, at each arrow. Applied at each, the list reloaded and its count was read out at every step.
 */
function renderSettings(): { applied: number[]; select: HTMLSelectElement } {
  const applied: number[] = [];
  function Harness() {
    const [preferences, setPreferences] = useState<ListPreferences>(DEFAULT_LIST_PREFERENCES);
    return (
      <ListSettings
        columns={[{ name: 'title', label: 'Title' }]}
        preferences={preferences}
        onChange={(next) => {
          applied.push(next.pageSize);
          setPreferences(next);
        }}
      />
    );
  }
  render(<Harness />);
  return { applied, select: screen.getByRole('combobox', { name: 'Rows per page' }) };
}

/** An arrow as Chromium handles it on a closed drop-down: the key, then the value moved and `change`. */
function arrowTo(select: HTMLSelectElement, key: 'ArrowDown' | 'ArrowUp', value: string): void {
  fireEvent.keyDown(select, { key });
  fireEvent.change(select, { target: { value } });
  fireEvent.keyUp(select, { key });
}

it('applies nothing while the arrows browse the sizes, and the size reached on Enter, once', () => {
  const { applied, select } = renderSettings();
  select.focus();
  arrowTo(select, 'ArrowDown', '50');
  arrowTo(select, 'ArrowDown', '100');
  expect(applied).toEqual([]);
  expect(select.value).toBe('100');

  // The commit, not also the opening of the list (Chromium opens it on Enter).
  expect(fireEvent.keyDown(select, { key: 'Enter' })).toBe(false);
  expect(applied).toEqual([100]);
  expect(select.value).toBe('100');
});

it('applies the size browsed to when the focus leaves the drop-down', () => {
  const { applied, select } = renderSettings();
  select.focus();
  arrowTo(select, 'ArrowUp', '10');
  fireEvent.blur(select);
  expect(applied).toEqual([10]);
});

it('takes the browsed size back on Escape', () => {
  const { applied, select } = renderSettings();
  select.focus();
  arrowTo(select, 'ArrowDown', '50');
  fireEvent.keyDown(select, { key: 'Escape' });
  expect(select.value).toBe('25');
  fireEvent.blur(select);
  expect(applied).toEqual([]);
});

it('applies a size chosen in the opened list at once, after keys or not', () => {
  const { applied, select } = renderSettings();
  fireEvent.change(select, { target: { value: '50' } });
  expect(applied).toEqual([50]);

  arrowTo(select, 'ArrowDown', '100');
  fireEvent.pointerDown(select);
  fireEvent.change(select, { target: { value: '10' } });
  expect(applied).toEqual([50, 10]);
});
