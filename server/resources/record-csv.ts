import type { Response } from 'express';
import { RECORD_LIST_LIMIT, type ResourceRecord } from '../../shared';
import type { RecordPageQuery } from '../storage/record-page-query';
import { listRelatedRecords } from './list-related-records';
import type { RecordSource } from './record-source';
import type { RegisteredResource } from './registered-resource';

/** `format=csv` on a list: the whole list in CSV rather than a page in JSON. */
export const RECORD_CSV_FORMAT = 'csv';

/**
 * `bom=1` beside it: the file starts with a UTF-8 byte-order mark. Excel on Windows reads a CSV without one in the
 * system's code page (`Zoë` as `ZoÃ«`); a script reading the first header name would find the mark in it, so the API
 * sends none unless asked, and the list page's download link asks (a person opens it in a spreadsheet).
 */
export const RECORD_CSV_BOM = '1';

const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Cells a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, and the tab and carriage return some read as
 * such) get a leading `'`, so an exported value such as `=HYPERLINK(...)` stays text when opened (OWASP "CSV
 * injection"). A negative number loses nothing: `'-3` is shown as -3 as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One value as an RFC 4180 field: quoted when it holds a comma, a quote or a line break, quotes doubled. */
export function csvCell(value: unknown): string {
  let text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line (RFC 4180: CRLF ends every record). */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * Writes every record of `query`'s list (all its pages, from the first, whatever cursor or limit it came with) as
 * CSV: a header row of the list's columns (their names, as `listColumns` gives them: stable for scripts), then one row per record, a relation column as the related
 * record's title. Page by page through the same keyset walk as the list, waiting for the client to drain each page,
 * so a large list never sits whole in memory.
 */
export async function writeRecordsCsv(
  res: Response,
  records: RecordSource,
  tenant: string,
  resource: RegisteredResource,
  query: RecordPageQuery,
  { byteOrderMark = false }: { byteOrderMark?: boolean } = {},
): Promise<void> {
  const { listColumns } = resource.definition;
  const { after: _after, before: _before, ...list } = query;
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${resource.name}.csv"`);
  res.setHeader('Cache-Control', 'no-store');
  await write(res, (byteOrderMark ? BYTE_ORDER_MARK : '') + csvLine(listColumns));
  let page = await records.page(tenant, resource.name, { ...list, limit: RECORD_LIST_LIMIT.max });
  for (;;) {
    const related = await listRelatedRecords(records, tenant, resource, page.records);
    const titleOf = (column: string, record: ResourceRecord): unknown => {
      const found = related?.[column]?.find((candidate) => candidate.id === record[column]);
      return found ? found.title || `#${found.id}` : record[column];
    };
    const rows = page.records.map((record) => csvLine(listColumns.map((column) => titleOf(column, record))));
    if (rows.length > 0) await write(res, rows.join(''));
    if (!page.next || res.destroyed) break;
    page = await records.page(tenant, resource.name, { ...list, limit: RECORD_LIST_LIMIT.max, after: page.next });
  }
  res.end();
}

/** Writes `text`, resolving once the socket can take more (backpressure). */
function write(res: Response, text: string): Promise<void> {
  if (res.write(text)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
