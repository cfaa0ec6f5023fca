import type { PropsOf } from '../../kit';
import type remote from '../remote';
import { useEffect, useState } from 'react';
import type { RecordListPayload, ResourceRecord } from '../../kit';
import { apiClient } from '../api-client';
import { dateLocales, instantInWords } from '../../../shared/date-time-in-words';

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type ActivityTimelineProps = PropsOf<typeof remote, 'ActivityTimeline'>;

/** `/resources/:resource/:id[/edit]` of the current page, or null elsewhere. */
export function recordRoute(pathname: string): { resource: string; id: number } | null {
  const match = /^\/resources\/([^/]+)\/(\d+)(?:\/edit)?\/?$/.exec(pathname);
  if (!match?.[1] || !match[2]) return null;
  return { resource: decodeURIComponent(match[1]), id: Number(match[2]) };
}

function timestampOf(record: ResourceRecord): number | null {
  const value = record.updatedAt ?? record.updated_at;
  if (typeof value !== 'string') return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

/** How many records the timeline shows for its `limit` prop: at most 50, five for a limit that is no count. */
export function timelineLength(limit: number): number {
  return Number.isInteger(limit) && limit > 0 ? Math.min(limit, 50) : 5;
}

/** Most recently changed records first (by `updatedAt` when records carry one, else newest id first). */
export function recentRecords(records: readonly ResourceRecord[], limit: number): ResourceRecord[] {
  const count = timelineLength(limit);
  return [...records]
    .sort((a, b) => (timestampOf(b) ?? b.id) - (timestampOf(a) ?? a.id) || b.id - a.id)
    .slice(0, count);
}

type State =
  | { phase: 'loading' }
  | { phase: 'ready'; records: ResourceRecord[] }
  | { phase: 'failed'; message: string };

/**
 * The newest records of the resource of the record being viewed, in the current tenant, the current one marked, each
 * a link; by `updatedAt` when records carry one. The records API gives no time of change, so it says "newest", not
 * "recent activity": an edit does not bring a record up (a staff review read it as activity and missed its edits).
 * The location gives no context, so the component reads the page's route.
 */
export function ActivityTimeline({ limit }: ActivityTimelineProps) {
  const [route] = useState(() => recordRoute(window.location.pathname));
  const [state, setState] = useState<State>({ phase: 'loading' });

  useEffect(() => {
    if (!route) return undefined;
    const controller = new AbortController();
    apiClient
      .get<RecordListPayload>(
        // The newest records by id, as many as it shows: it asked for a whole list page (100, 11.6 KB at the demo's
        // authors) to show five.
        `/api/resources/${encodeURIComponent(route.resource)}/records?order=desc&limit=${timelineLength(limit)}`,
        controller.signal,
      )
      .then(
        (payload) => setState({ phase: 'ready', records: recentRecords(payload.records, limit) }),
        (reason: unknown) => {
          if (!controller.signal.aborted) {
            setState({
              phase: 'failed',
              message: reason instanceof Error ? reason.message : 'Could not load the newest records.',
            });
          }
        },
      );
    return () => controller.abort();
  }, [route, limit]);

  if (!route) return null;
  // As the host's pages write a day and an instant: in the reader's form of the page's English.
  const locales = dateLocales(document.documentElement.lang || 'en', navigator.languages);
  return (
    <section className="card timeline" aria-label="Newest records">
      <h2 className="card__title">
        Newest in <bdi>{route.resource}</bdi>
      </h2>
      {state.phase === 'loading' && <p className="muted">Loading the newest records…</p>}
      {state.phase === 'failed' && <p className="muted">{state.message}</p>}
      {state.phase === 'ready' && state.records.length === 0 && <p className="muted">No records yet.</p>}
      {state.phase === 'ready' && state.records.length > 0 && (
        <ol className="timeline__list">
          {state.records.map((record) => {
            const time = timestampOf(record);
            const current = record.id === route.id;
            return (
              <li key={record.id} className={current ? 'timeline__item timeline__item--current' : 'timeline__item'}>
                {/* A title in its own direction (Hebrew, Arabic), isolated from the words after it. */}
                <a href={`/resources/${encodeURIComponent(route.resource)}/${record.id}`}>
                  <bdi>{record.title}</bdi>
                </a>
                <span className="muted">
                  {current ? ' (this record)' : ''}
                  {time !== null && (
                    <>
                      {' · updated '}
                      <time dateTime={new Date(time).toISOString()} title={new Date(time).toISOString()}>
                        {instantInWords(time, locales)}
                      </time>
                    </>
                  )}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
