import { RELEVANCE_RANKED_MAX, type ResourceRecord } from '../../shared';
import type { RecordPage, RecordPageQuery, RecordPosition } from '../storage/record-page-query';
import { splitWords } from './record-words';

/** What a word of a search scores in a record, by where it is found (see RELEVANCE_SORT); best first. */
const SCORES = { primaryWord: 4, primaryPrefix: 3, otherWord: 2, otherPrefix: 1 } as const;

/**
 * How well `record` matches the search `words` (already split by splitWords, as the list's query holds them): each
 * word scores the best of SCORES, a record the sum. Computed here, by the server, from the words as the word index
 * splits them, so SQLite and PostgreSQL rank alike (decision 11: engines only match words).
 */
export function relevanceOf(record: ResourceRecord, words: readonly string[], primary: string): number {
  const primaryValue = record[primary];
  const primaryWords = typeof primaryValue === 'string' ? splitWords(primaryValue) : [];
  const otherWords = Object.entries(record).flatMap(([key, value]) =>
    key !== primary && key !== 'id' && typeof value === 'string' ? splitWords(value) : [],
  );
  let score = 0;
  for (const word of words) {
    if (primaryWords.includes(word)) score += SCORES.primaryWord;
    else if (primaryWords.some((each) => each.startsWith(word))) score += SCORES.primaryPrefix;
    else if (otherWords.includes(word)) score += SCORES.otherWord;
    else if (otherWords.some((each) => each.startsWith(word))) score += SCORES.otherPrefix;
  }
  return score;
}

/** A record of the ranked list with its place: its relevance as the position's key (0 for the unranked tail). */
interface Ranked {
  record: ResourceRecord;
  position: RecordPosition & { key: number };
}

/** Whether `a` comes before `b` in the relevance order: the higher score first, then the newer (higher id). */
function precedes(a: RecordPosition, b: RecordPosition): boolean {
  const [ka, kb] = [Number(a.key ?? 0), Number(b.key ?? 0)];
  return ka > kb || (ka === kb && a.id > b.id);
}

/**
 * One page of a word search in relevance order, by keyset like every list (a position is the record's score and
 * id). The newest `rankedMax` (RELEVANCE_RANKED_MAX) matches are read (through `byId`, the word index's walk by id) and ranked;
 * the older matches of a larger result follow them newest first (score 0), read page by page as any list by id. So
 * a page costs at most `rankedMax` records read, however many records match, and every match is listed
 * once.
 */
export async function relevancePage(
  query: RecordPageQuery,
  byId: (query: RecordPageQuery) => Promise<RecordPage>,
  rankedMax = RELEVANCE_RANKED_MAX,
): Promise<RecordPage> {
  const { relevance, words = [], after, before, limit, ...list } = query;
  if (!relevance) throw new Error('relevancePage needs query.relevance');
  const base: RecordPageQuery = { ...list, sort: { column: 'id' }, descending: true, limit };
  const read = await byId({ ...base, limit: rankedMax, words });
  const ranked: Ranked[] = read.records
    .map((record) => ({ record, position: { key: relevanceOf(record, words, relevance.primary), id: record.id } }))
    .sort((a, b) => b.position.key - a.position.key || b.position.id - a.position.id);
  // Where the tail starts: after the oldest record read (the id walk's own cursor), when older matches exist.
  const tailFrom = read.next;
  const tail = async (page: Pick<RecordPageQuery, 'after' | 'before'>, count: number): Promise<Ranked[]> => {
    if (!tailFrom || count <= 0) return [];
    const found = await byId({ ...base, words, limit: count, ...page });
    return found.records
      .filter((record) => record.id < tailFrom.id)
      .map((record) => ({ record, position: { key: 0, id: record.id } }));
  };

  if (before) {
    const inTail = Number(before.key ?? 0) === 0;
    const tailBefore = inTail ? await tail({ before: { id: before.id } }, limit + 1) : [];
    const earlier = [...ranked.filter((entry) => precedes(entry.position, before)), ...tailBefore];
    const shown = earlier.slice(-limit);
    const last = shown.at(-1);
    return {
      records: shown.map((entry) => entry.record),
      ...(earlier.length > limit && shown[0] ? { previous: shown[0].position } : {}),
      ...(last ? { next: last.position } : {}),
    };
  }
  const from = after;
  const rankedAfter = from ? ranked.filter((entry) => precedes(from, entry.position)) : ranked;
  const candidates = rankedAfter.slice(0, limit + 1);
  const tailStart = from && Number(from.key ?? 0) === 0 ? { id: from.id } : tailFrom;
  const entries =
    candidates.length > limit || !tailStart
      ? candidates
      : [...candidates, ...(await tail({ after: tailStart }, limit + 1 - candidates.length))];
  const shown = entries.slice(0, limit);
  const first = shown[0];
  const last = shown.at(-1);
  return {
    records: shown.map((entry) => entry.record),
    ...(entries.length > limit && last ? { next: last.position } : {}),
    ...(from && first && ranked[0]?.record.id !== first.record.id ? { previous: first.position } : {}),
  };
}
