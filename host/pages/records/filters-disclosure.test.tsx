import { render, screen } from '@testing-library/react';
import type { RecordFilterDefinition } from '../../../shared';
import { ApiClientProvider, SlotSourceProvider } from '../../core';
import { createFakeApi } from '../../../testing/host/fake-api';
import { createTestSlotSource } from '../../../testing/host/slot-source';
import { describeAppliedFilter, FiltersDisclosure } from './filters-disclosure';

const AUTHOR: RecordFilterDefinition = { name: 'author', label: 'Author', kind: 'relation', resource: 'authors' };
const GROUP: RecordFilterDefinition = { name: 'group', label: 'Group', kind: 'select', options: ['news'] };

describe('the filters applied, said beside "Filters"', () => {
  it('names a relation’s record by its title once known, by its id until then or when it is gone', async () => {
    const api = createFakeApi({
      'GET /api/resources/authors/records/3': { body: { record: { id: 3, title: 'Alan Turing' } } },
      'GET /api/resources/authors/records/9': { status: 404, body: { error: { code: 'not_found', message: 'No.' } } },
    });
    const shown = (author: string) =>
      render(
        <ApiClientProvider client={api.client}>
          <SlotSourceProvider source={createTestSlotSource(api, { signedIn: true })}>
            <FiltersDisclosure filters={[GROUP, AUTHOR]} applied={{ group: 'news', author }}>
              <p>form</p>
            </FiltersDisclosure>
          </SlotSourceProvider>
        </ApiClientProvider>,
      );
    const { unmount } = shown('3');
    expect(screen.getByText(/^Filters \(2\)/).textContent).toBe('Filters (2): Group: news, Author: record #3');
    await screen.findByText(/Author: Alan Turing/);
    expect(screen.getByText(/^Filters \(2\)/).textContent).toBe('Filters (2): Group: news, Author: Alan Turing');
    unmount();

    shown('9');
    await screen.findByText(/^Filters \(2\)/);
    expect(api.count('GET', '/api/resources/authors/records/9')).toBe(1);
    expect(screen.getByText(/^Filters \(2\)/).textContent).toBe('Filters (2): Group: news, Author: record #9');
  });

  it('says each kind in words', () => {
    expect(describeAppliedFilter(AUTHOR, '3', 'Alan Turing')).toBe('Author: Alan Turing');
    expect(describeAppliedFilter(AUTHOR, '3', '')).toBe('Author: record #3');
    expect(describeAppliedFilter(GROUP, 'news')).toBe('Group: news');
  });
});
