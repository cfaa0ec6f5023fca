/*
 * Above 300 lines for one reason: the list page keeps one address (search, filters, sort, page, page size, columns)
 * that its search, filters, pager, CSV link and table all read and write; the parts are components of their own.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import {
  RECORD_LIST_LIMIT,
  RECORD_SEARCH_MAX_LENGTH,
  RELEVANCE_SORT,
  type FieldItem,
  type RecordDeletedPayload,
  type RecordListPayload,
} from '../../../shared';
import { reloadFailed, useApi } from '../../hooks/use-api';
import { Breadcrumbs } from '../../layout/breadcrumbs';
import { PageHeading } from '../../layout/page-heading';
import { ReadOnlyRoleNotice, useMayChangeRecords } from '../../forms/read-only-role';
import { BulkActions, hasBulkActions } from './bulk-actions';
import { DeletedRecordNotice, useDeletedRecord } from './deleted-record-notice';
import { deletedRecordsAddress } from '../common/deleted-records-address';
import { describeRecordPage, recordNouns } from './describe-record-page';
import { keepListAddress, useListOwner } from '../../hooks/list-return-address';
import { ListPager } from './list-pager';
import { PageStatus } from '../common/page-status';
import {
  addressSort,
  neighbourPage,
  recordListApiPath,
  recordListSearch,
  type RecordListLocation,
} from './record-list-location';
import { RecordFiltersForm } from './record-filters-form';
import { FiltersDisclosure } from './filters-disclosure';
import { ListSettings } from './list-settings';
import { readListPreferences, saveListPreferences, type ListPreferences } from './list-preferences';
import { RecordTableFrame } from './record-table-frame';
import { RecordSearchForm } from './record-search-form';
import { RecordRow, recordColumnClass, type RecordColumn } from './record-row';
import { ToBulkActions } from './to-bulk-actions';
import { useResourceDefinition } from '../../hooks/resource-definitions';

/**
 * The records of a resource in the current tenant, a page at a time, in the columns its definition lists (the
 * first links). Search, sort and page live in the address; the server does all three (see RecordListQuery).
 * While the next page loads the current one stays, so the control that asked for it keeps the focus.
 */
export function ResourceListPage() {
  const { resource = '' } = useParams();
  const name = encodeURIComponent(resource);
  const [params, setParams] = useSearchParams();
  const mayChange = useMayChangeRecords();
  const definition = useResourceDefinition(resource);
  const owner = useListOwner(resource);
  // Rows per page and columns shown: the user's own, remembered in this browser (list-preferences.ts says why).
  const [preferences, setPreferences] = useState<{ key: string; value: ListPreferences } | null>(null);
  const preferencesKey = owner ? `${owner.username}\n${resource}` : '';
  const chosen =
    preferences?.key === preferencesKey ? preferences.value : readListPreferences(owner?.username ?? '', resource);
  const choose = (value: ListPreferences) => {
    if (owner) saveListPreferences(owner.username, resource, value);
    setPreferences({ key: preferencesKey, value });
  };
  const apiPath = recordListApiPath(resource, params);
  // The default size is left out, as the address leaves defaults out.
  const records = useApi<RecordListPayload>(
    chosen.pageSize === RECORD_LIST_LIMIT.default
      ? apiPath
      : `${apiPath}${apiPath.includes('?') ? '&' : '?'}limit=${chosen.pageSize}`,
  );
  const listSearch = params.toString();
  useEffect(() => {
    if (owner) keepListAddress(owner, listSearch ? `?${listSearch}` : '');
  }, [owner?.username, owner?.tenant, resource, listSearch]);
  // A delete made here, or on the record's page just left: offered back until the next.
  const [deleted, setDeleted] = useDeletedRecord();
  /** The server's words for a record deleted by someone else before this page's Delete was confirmed. */
  const [gone, setGone] = useState<string | null>(null);
  // Rows selected for a bulk action, by id; only those of the page shown count.
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  // The box ticked last (a row's, or the header's for the whole page): followed by the way to the bulk actions.
  const [tickedLast, setTickedLast] = useState<number | 'page' | null>(null);
  const bulkBar = useRef<HTMLElement>(null);
  const goToBulkActions = useCallback(() => {
    bulkBar.current?.querySelector<HTMLElement>('button, select, input, a[href]')?.focus();
  }, []);
  const lastShown = useRef<{ resource: string; payload: RecordListPayload } | null>(null);
  if (records.status === 'ready') lastShown.current = { resource, payload: records.data };
  const shown =
    records.status === 'ready'
      ? records.data
      : lastShown.current?.resource === resource
        ? lastShown.current.payload
        : null;

  const resourceDefinition = definition.status === 'ready' ? definition.data.resource : null;
  // The rows are memoised (RecordRow): what they are given keeps its identity from one render to the next, so a page
  // loading, a box ticked or a notice shown renders only the rows that changed. The preferences read from storage are a
  // new array at each render: their content is what counts.
  const hiddenColumns = chosen.hiddenColumns.join('\n');
  const columns = useMemo((): RecordColumn[] => {
    if (!resourceDefinition) return [];
    const hidden = hiddenColumns.split('\n');
    return resourceDefinition.listColumns
      .filter((column, index) => index === 0 || !hidden.includes(column))
      .map((column) => ({
        name: column,
        field: resourceDefinition.fields.find(
          (item): item is FieldItem => item.type === 'field' && item.name === column,
        ),
      }));
  }, [resourceDefinition, hiddenColumns]);
  const toggleRow = useCallback((id: number) => {
    setTickedLast(id);
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const { reload: reloadRecords } = records;
  const onDeleted = useCallback(
    (payload: RecordDeletedPayload) => {
      setGone(null);
      setDeleted({ resource, record: payload.deleted });
      reloadRecords();
    },
    [resource, setDeleted, reloadRecords],
  );
  const clearDeleted = useCallback(() => setDeleted(null), [setDeleted]);
  // Deleted by someone else before this Delete was confirmed: said (where to restore it), and the list read again.
  const onGone = useCallback(
    (message: string) => {
      setGone(message);
      reloadRecords();
    },
    [reloadRecords],
  );

  if (definition.status === 'error') {
    return <PageStatus status="error" error={definition.error} retry={reloadFailed(definition, records)} />;
  }
  if (records.status === 'error') {
    // A 400 is an address the list cannot show (an old cursor, a column no longer sortable): try its first page.
    if (records.error.status === 400) {
      return (
        <PageStatus
          status="error"
          error={records.error}
          retry={() => setParams(new URLSearchParams())}
          retryLabel="Show the list's first page"
        />
      );
    }
    return <PageStatus status="error" error={records.error} retry={records.reload} />;
  }
  if (definition.status === 'loading' || !shown) return <PageStatus status="loading" />;

  const { label, fields, listColumns, sortableColumns, searchableColumns, canCreate, canDelete, filters } =
    definition.data.resource;
  const fieldsByName = new Map(
    fields.filter((item): item is FieldItem => item.type === 'field').map((field) => [field.name, field]),
  );
  const columnLabel = (column: string) => fieldsByName.get(column)?.label ?? column;
  const { records: rows, page } = shown;
  // Sorting and searching keep the filters applied; applying filters keeps the search and the sort.
  const go = (location: RecordListLocation) => setParams(recordListSearch({ filters: page.filters, ...location }));
  const applyFilters = (chosen: Record<string, string>) =>
    go({
      q: page.q,
      search: page.search,
      sort: addressSort(page),
      order: page.order,
      filters: chosen,
    });
  const searchColumn = searchableColumns.includes(page.sort) ? page.sort : searchableColumns[0];

  const sortBy = (column: string) => {
    const order = page.sort === column && page.order === 'asc' ? 'desc' : 'asc';
    // A prefix search matches the sorted column: it goes on with a searchable column and is dropped otherwise. A word
    // search matches every text column: it stays whatever the sort.
    go({ q: searchableColumns.includes(column) ? page.q : '', search: page.search, sort: column, order });
  };
  // The sort a list keeps when its search changes: a column's (by id or relevance are the server's defaults).
  const columnSort = page.sort === 'id' || page.sort === RELEVANCE_SORT ? '' : page.sort;
  const search = (q: string) => go({ q, sort: q && searchColumn ? searchColumn : columnSort, order: page.order });
  // A page reached by a cursor whose records are all gone (deleted since) has no neighbour: the server pages from a
  // shown record. The list's first page is the way back.
  const stranded = rows.length === 0 && !page.previous && !page.next && (params.has('after') || params.has('before'));
  const pagerMoves = {
    onPrevious: page.previous ? () => setParams(neighbourPage(page, { before: page.previous ?? '' })) : undefined,
    onNext: page.next ? () => setParams(neighbourPage(page, { after: page.next ?? '' })) : undefined,
    onFirst: stranded
      ? () => go({ q: page.q, search: page.search, sort: addressSort(page), order: page.order })
      : undefined,
  };
  // New words list the best matches first (the server's default for a word search); the same words, a column's sort
  // chosen meanwhile, keep it. It leaves the prefix search. A column's order goes with its column: kept, once the
  // words are cleared the list would be sorted by id that way ("newest first"), which nobody chose. The id sort's own
  // order (no column) stays.
  const searchWords = (words: string) => {
    const keepsSort = words === page.search;
    const order = keepsSort || columnSort === '' ? page.order : 'asc';
    go({ q: '', search: words, sort: keepsSort ? columnSort : '', order });
  };
  const byRelevance = page.sort === RELEVANCE_SORT;
  // A search (or filters) matching nothing: a file of no rows and an order of no matches are no tools, only noise
  // beside the status saying there is nothing. A page stranded by a cursor is not that: the list holds others.
  const nothingMatches = rows.length === 0 && page.total.count === 0;
  const bulk = mayChange && hasBulkActions(definition.data.resource);
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.id));
  // Some rows but not all: the header's box says so (mixed), as a screen reader reads it.
  const someSelected = !allSelected && rows.some((row) => selected.has(row.id));
  const selectedCount = rows.filter((row) => selected.has(row.id)).length;
  const toBulkActions = (
    <ToBulkActions count={selectedCount} nouns={recordNouns(definition.data.resource)} onGo={goToBulkActions} />
  );
  const csvQuery = new URLSearchParams(recordListApiPath(resource, params).split('?')[1] ?? '');
  csvQuery.delete('after');
  csvQuery.delete('before');
  csvQuery.set('format', 'csv');
  // A person opens the download in a spreadsheet: a byte-order mark first, or Excel on Windows misreads UTF-8.
  csvQuery.set('bom', '1');
  const csvAddress = `/api/resources/${name}/records?${csvQuery.toString()}`;

  return (
    // The address the page shows: an address just changed is rendered a moment later (navigations are transitions).
    <div className="page" data-list-address={listSearch}>
      <Breadcrumbs
        trail={[{ label: 'Dashboard', to: '/' }, { label }]}
        actions={
          (canDelete || (canCreate && mayChange)) && (
            <>
              {/* For viewers too: they may see what was deleted, though not restore it. */}
              {canDelete && (
                <Link to={deletedRecordsAddress(resource)} className="button button--ghost button--small">
                  Recently deleted
                </Link>
              )}
              {canCreate && mayChange && (
                <Link to={`/resources/${name}/new`} className="button button--primary button--small">
                  New
                </Link>
              )}
            </>
          )
        }
      />
      <PageHeading title={label} />
      {!mayChange && (canCreate || canDelete || fields.some((item) => item.type === 'field')) && <ReadOnlyRoleNotice />}
      {deleted?.resource === resource && (
        <DeletedRecordNotice key={deleted.record.id} deleted={deleted} onRestored={records.reload} />
      )}
      {gone && (
        <p className="notice notice--info" role="status" data-deleted-since="">
          {gone}
        </p>
      )}
      <RecordSearchForm
        resourceLabel={label}
        prefixColumnLabel={searchColumn ? columnLabel(searchColumn) : null}
        applied={page.q ? { kind: 'q', text: page.q } : { kind: 'search', text: page.search }}
        maxLength={RECORD_SEARCH_MAX_LENGTH}
        onSearch={(kind, text) => (kind === 'q' ? search(text) : searchWords(text))}
      />
      {filters.length > 0 && (
        <FiltersDisclosure filters={filters} applied={page.filters}>
          <RecordFiltersForm resourceLabel={label} filters={filters} applied={page.filters} onApply={applyFilters} />
        </FiltersDisclosure>
      )}
      <div className="list-bar">
        <p className="list-status" role="status">
          {describeRecordPage(page, rows.length, recordNouns(definition.data.resource), columnLabel(page.sort))}
        </p>
        {/* The query as shown, every page of it, streamed by the server with the list's permissions. */}
        {!nothingMatches && (
          <a className="button button--ghost button--small" href={csvAddress} download data-csv-export="">
            Download CSV
          </a>
        )}
        {page.search && !nothingMatches && (
          // The sort control of a word search: its best matches first, or (the headings) by a column.
          <button
            type="button"
            className="button button--ghost button--small"
            aria-pressed={byRelevance}
            onClick={() => go({ q: '', search: page.search, sort: RELEVANCE_SORT, order: 'asc' })}
          >
            Best matches first
          </button>
        )}
        <ListSettings
          columns={listColumns.map((column) => ({ name: column, label: columnLabel(column) }))}
          preferences={chosen}
          onChange={choose}
        />
        {/* Also above the rows: below, it is two Tab stops per row away. */}
        <ListPager position="above" label={label} shown={shown} {...pagerMoves} />
      </div>
      {/* Kept when the list empties: a delete of every match leaves its outcome and Undo. */}
      <BulkActions
        definition={definition.data.resource}
        rows={rows}
        page={page}
        selected={selected}
        onSelect={setSelected}
        onDone={records.reload}
        barRef={bulkBar}
        recordDeletedSince={deleted}
        onDeleted={clearDeleted}
      />
      {rows.length > 0 && (
        <RecordTableFrame label={`${label} records`} busy={records.status === 'loading'}>
          <table className="table table--records">
            <thead>
              <tr>
                {columns.map((column) => {
                  const sortable = sortableColumns.includes(column.name);
                  const current = page.sort === column.name;
                  return (
                    <th
                      scope="col"
                      key={column.name}
                      className={recordColumnClass(column)}
                      data-column={column.name}
                      aria-sort={current ? (page.order === 'asc' ? 'ascending' : 'descending') : undefined}
                    >
                      {sortable ? (
                        <button type="button" className="table__sort" onClick={() => sortBy(column.name)}>
                          {columnLabel(column.name)}
                        </button>
                      ) : (
                        columnLabel(column.name)
                      )}
                    </th>
                  );
                })}
                <th scope="col" className="table__actions">
                  <span className="visually-hidden">Actions</span>
                  {bulk && (
                    <input
                      type="checkbox"
                      className="table__select"
                      aria-label={`Select all ${rows.length} on this page`}
                      checked={allSelected}
                      ref={(box) => {
                        if (box) box.indeterminate = someSelected;
                      }}
                      onChange={() => {
                        setTickedLast('page');
                        setSelected(allSelected ? new Set() : new Set(rows.map((row) => row.id)));
                      }}
                    />
                  )}
                  {bulk && tickedLast === 'page' && allSelected && toBulkActions}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((record) => (
                <RecordRow
                  key={record.id}
                  definition={definition.data.resource}
                  record={record}
                  columns={columns}
                  related={shown.related}
                  mayChange={mayChange}
                  selectable={bulk}
                  selected={selected.has(record.id)}
                  afterSelectBox={tickedLast === record.id && selected.has(record.id) ? toBulkActions : null}
                  onToggle={toggleRow}
                  onDeleted={onDeleted}
                  onGone={onGone}
                />
              ))}
            </tbody>
          </table>
        </RecordTableFrame>
      )}
      <ListPager position="below" label={label} shown={shown} {...pagerMoves} />
    </div>
  );
}
