import { render, screen } from '@testing-library/react';
import type { RecordListPayload, ResourceRecord } from '../../kit';
import { browserLanguage } from '../../../testing/host/browser-language';
import { dateLocales, instantInWords } from '../../../shared/date-time-in-words';
import { apiClient } from '../api-client';
import { ActivityTimeline } from './ActivityTimeline';

const UPDATED = '2026-11-29T20:31:53.000Z';

function record(id: number, title: string, updatedAt?: string): ResourceRecord {
  return { id, title, label: 'Article', group: 'news', ...(updatedAt ? { updatedAt } : {}) };
}

/** The records API answers the timeline's read with `records`; the spy tells what was asked. */
function showList(records: ResourceRecord[]): jest.SpyInstance {
  const payload = { records } as unknown as RecordListPayload;
  return jest.spyOn(apiClient, 'get').mockResolvedValueOnce(payload as never);
}

describe('ActivityTimeline in a browser set to German', () => {
  browserLanguage('de-DE');

  beforeEach(() => {
    window.history.pushState(null, '', '/resources/articles/2');
  });

  afterEach(() => {
    window.history.pushState(null, '', '/');
  });

  it('says when each record was updated in English, in the reader’s zone, the exact instant in the markup', async () => {
    showList([record(2, 'Spring launch', UPDATED)]);
    render(<ActivityTimeline limit={5} />);
    const link = await screen.findByRole('link', { name: 'Spring launch' });
    const item = link.closest('li')!;
    expect(item.textContent).toBe(
      `Spring launch (this record) · updated ${instantInWords(Date.parse(UPDATED), dateLocales('en', navigator.languages))}`,
    );
    const time = item.querySelector('time')!;
    expect(time.getAttribute('dateTime')).toBe(UPDATED);
    expect(time.title).toBe(UPDATED);
  });

  it('asks for as many of the newest records as it shows, not a whole list page', async () => {
    const asked = showList([record(3, 'Third'), record(2, 'Second')]);
    render(<ActivityTimeline limit={3} />);
    await screen.findByRole('link', { name: 'Third' });
    expect(asked).toHaveBeenCalledWith('/api/resources/articles/records?order=desc&limit=3', expect.any(AbortSignal));
  });

  it('shows each title in its own direction, isolated from the words around it', async () => {
    showList([record(3, '3 مقالات جديدة'), record(2, 'מה חדש?')]);
    render(<ActivityTimeline limit={5} />);
    const link = await screen.findByRole('link', { name: '3 مقالات جديدة' });
    expect(link.querySelector('bdi')?.textContent).toBe('3 مقالات جديدة');
    const current = screen.getByRole('link', { name: 'מה חדש?' });
    expect(current.querySelector('bdi')?.textContent).toBe('מה חדש?');
    expect(current.closest('li')?.textContent).toBe('מה חדש? (this record)');
  });
});
