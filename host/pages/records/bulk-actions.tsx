/*
 * Above 300 lines for one reason: the bulk bar is one flow (choose the selected rows or every match, confirm in the
 * app's dialog, send, announce, undo with the focus placed after each step) shared by delete and "Set on selected",
 * whose undo restores each record's own earlier value (the requests of the undo are bulk-undo.ts's).
 */
import { useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react';
import type {
  BulkRecordPayload,
  BulkRecordRequest,
  ErrorBody,
  FieldItem,
  JsonValue,
  RecordListPage,
  ResourceDefinition,
  ResourceRecord,
} from '../../../shared';
import { ApiError, useApiClient, useSession } from '../../core';
import { ConfirmDialog, useConfirmDialog } from '../../layout/confirm-dialog';
import { useMayChangeRecords } from '../../forms/read-only-role';
import { countOf } from '../common/count-in-words';
import { useStickyClearance } from '../common/sticky-clearance';
import { restoreRecords, revertField, type UndoOutcome } from './bulk-undo';
import { recordNouns } from './describe-record-page';
import { EveryMatchOffer, listQuery, listQueryKey } from './every-match-offer';

/**
 * The custom property of the document's root that holds the bar's height while rows are selected (useStickyClearance):
 * records.css makes it the document's scroll padding. Wrapped onto two to four lines between a phone's width and a
 * wide window's, the bar outgrew the 6rem kept for it, and a row's Delete half under it took the focus unseen.
 */
export const BAR_HEIGHT_PROPERTY = '--bulk-actions-height';

export interface BulkActionsProps {
  definition: ResourceDefinition;
  /** The records of the page shown, and which of them are selected. */
  rows: readonly ResourceRecord[];
  /** The list's page as the server answered it: its search, filters and total (for "every match"). */
  page: RecordListPage;
  selected: ReadonlySet<number>;
  onSelect(ids: ReadonlySet<number>): void;
  /** After a bulk request: the list shows the records as they are now. */
  onDone(): void;
  /** The bar, while rows are selected: ToBulkActions moves the focus into it. */
  barRef?: RefObject<HTMLElement | null>;
  /**
   * The list offers to undo its last delete alone, as a record's Delete replaces the undo of the one before: a record
   * deleted from its row since (a new object for each) takes the place of a bulk delete's outcome and Undo, and a
   * bulk delete calls `onDeleted` so that the list drops a record's.
   */
  recordDeletedSince?: object | null;
  onDeleted?(): void;
}

/** How a bulk action is undone: the deleted records restored, or the field set back to each record's own value. */
type Undo =
  | { kind: 'restore'; records: ResourceRecord[] }
  | {
      kind: 'revert';
      field: string;
      /** The field's definition: a checkbox never ticked is set back to not ticked. */
      fieldItem?: FieldItem;
      label: string;
      /** The value the action set: a record holding another one now was changed since, and is left as it is. */
      setTo: JsonValue;
      previous: ReadonlyMap<number, JsonValue>;
    };

type Outcome = { text: string; failures: string[]; undo: Undo | null; key: number } | null;

/** The value a field is set back to: a value never set becomes "empty" (null), or not ticked for a checkbox. */
function storedValue(field: FieldItem | undefined, value: JsonValue | undefined): JsonValue {
  if (value !== undefined && value !== null) return value;
  return field?.input === 'checkbox' ? false : null;
}

/** A field's value as the bar's messages say it: "(empty)", ticked or not, or the value itself. */
function inWords(field: FieldItem | undefined, value: JsonValue): string {
  if (field?.input === 'checkbox') return value ? 'ticked' : 'not ticked';
  return value === null || value === '' ? '(empty)' : String(value);
}

/** Whether a list offers bulk actions at all (a field to set or a delete), so rows and the page can be selected. */
export function hasBulkActions(definition: ResourceDefinition): boolean {
  return definition.canDelete || settableFields(definition).length > 0;
}

/** The fields a bulk change can set: those whose values are a short list (select options, ticked or not). */
function settableFields(definition: ResourceDefinition): FieldItem[] {
  return definition.fields.filter(
    (item): item is FieldItem => item.type === 'field' && (item.input === 'select' || item.input === 'checkbox'),
  );
}

/**
 * Acting on the selected rows of a page (selected in the table, its header selecting the whole page): set one field
 * on all, or delete all, each asked again in the app's dialog, in one request. The bar shows only while rows are
 * selected, so it does not push the rows down. What became of each is said in a live region, naming the records
 * refused and why; both can be undone (deleted records restored, the field set back to each record's own value),
 * and the focus goes to Undo, as the bar it was in has gone with the selection. With the whole page selected, the bar
 * offers every match of the list (its search and filters, on every page), which the server then finds itself.
 */
export function BulkActions({
  definition,
  rows,
  page,
  selected,
  onSelect,
  onDone,
  barRef,
  recordDeletedSince,
  onDeleted,
}: BulkActionsProps) {
  const client = useApiClient();
  const { expire } = useSession();
  const mayChange = useMayChangeRecords();
  const fields = settableFields(definition);
  const [fieldName, setFieldName] = useState(fields[0]?.name ?? '');
  const [picked, setPicked] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const dialog = useConfirmDialog();
  const setDialog = useConfirmDialog();
  const clearance = useStickyClearance(BAR_HEIGHT_PROPERTY);
  const bar = useCallback(
    (element: HTMLElement | null) => {
      if (element === null) return undefined;
      if (barRef) barRef.current = element;
      const release = clearance(element);
      return () => {
        if (barRef) barRef.current = null;
        release?.();
      };
    },
    [barRef, clearance],
  );
  const undoButton = useRef<HTMLButtonElement>(null);
  const undoing = useRef(false);
  // An outcome without Undo (an undo's own, or one that failed) takes no focus: its status is said once by the live
  // region, and focusing that region would say it twice, with no ring to see. The control that had the focus, gone
  // with the bar or Undo, hands it to the page's heading (RouteFocusProvider), as a single record's undo does.
  useEffect(() => {
    if (outcome) undoButton.current?.focus();
  }, [outcome?.key]);
  // Its Undo had the focus: it is on the record's Undo now (DeletedRecordNotice), which replaces it.
  useEffect(() => {
    if (recordDeletedSince) setOutcome((shown) => (shown?.undo?.kind === 'restore' ? null : shown));
  }, [recordDeletedSince]);
  const ids = rows.filter((row) => selected.has(row.id)).map((row) => row.id);
  const listKey = listQueryKey(page);
  const [everyMatchOf, setEveryMatchOf] = useState<string | null>(null);
  const everyMatchButton = useRef<HTMLButtonElement>(null);
  const onlyPageButton = useRef<HTMLButtonElement>(null);
  // "Every match" and "Only the page" replace each other: the one pressed is gone, and the focus would fall to the
  // page's heading, far from the bar. Its counterpart, in its place, takes it.
  const switchedTo = useRef<'every' | 'page' | null>(null);
  useEffect(() => {
    const to = switchedTo.current;
    switchedTo.current = null;
    (to === 'every' ? onlyPageButton : to === 'page' ? everyMatchButton : null)?.current?.focus();
  }, [everyMatchOf]);
  const switchEveryMatch = (to: 'every' | 'page') => {
    switchedTo.current = to;
    setEveryMatchOf(to === 'every' ? listKey : null);
  };
  const pageSelected = rows.length > 0 && ids.length === rows.length;
  const moreThanPage = page.total.count > rows.length || !page.total.exact;
  // "Every match": chosen for this very list, and the page still wholly selected.
  const everyMatch = everyMatchOf === listKey && pageSelected && page.total.exact;
  const reached = everyMatch ? page.total.count : ids.length;
  const nouns = recordNouns(definition);
  const what = nouns.many;
  const counted = (count: number) => countOf(count, nouns.one, nouns.many);
  const fieldId = useId();
  const valueId = useId();
  const field = fields.find((each) => each.name === fieldName);
  const choices = field?.input === 'checkbox' ? ['true', 'false'] : (field?.options ?? []);
  // A required field cannot be emptied (the server refuses each record): it offers its values alone, the first shown.
  // A checkbox never set reads as not ticked everywhere (its page, the list, the "Not ticked" filter): "(empty)"
  // beside "Not ticked" would offer one value twice.
  const offersEmpty = !field?.required && field?.input !== 'checkbox';
  const value = !offersEmpty && !picked ? (choices[0] ?? '') : picked;
  /** Why a record was refused: each field's own message when the server names fields, else its message. */
  const refusal = ({ fields: refused = {}, message }: ErrorBody['error']) =>
    Object.entries(refused)
      .map(([name, why]) => {
        const item = definition.fields.find((each): each is FieldItem => each.type === 'field' && each.name === name);
        return `${item?.label ?? name}: ${why}`;
      })
      .join(' ') || message;
  const titleOf = (id: number) => {
    const row = rows.find((each) => each.id === id);
    return row?.title || `#${id}`;
  };
  const target = (): { ids: number[] } | { query: { list: Record<string, string>; count: number } } =>
    everyMatch ? { query: { list: listQuery(page), count: page.total.count } } : { ids };
  /** "on 3 articles", "on all 140 articles this list matches" */
  const reachedWords = everyMatch ? `all ${counted(reached)} this list matches` : counted(reached);

  const send = async (request: BulkRecordRequest, done: string, revert?: Omit<Undo & { kind: 'revert' }, 'kind'>) => {
    if (busy) return;
    setBusy(true);
    try {
      const payload = await client.post<BulkRecordPayload>(
        `/api/resources/${encodeURIComponent(definition.name)}/records/bulk`,
        request,
      );
      const failures = payload.results.flatMap((result) =>
        result.ok ? [] : [`“${titleOf(result.id)}”: ${refusal(result.error)}`],
      );
      const succeeded = payload.results.flatMap((result) => (result.ok ? [result.record] : []));
      // Each record's earlier value as the server found it when changing it (the rows shown, from an older server).
      const before = new Map<number, JsonValue>();
      for (const result of payload.results) {
        if (!result.ok || !revert) continue;
        const { previous } = result;
        const value = previous && revert.field in previous ? previous[revert.field] : revert.previous.get(result.id);
        if (value !== undefined) before.set(result.id, value);
      }
      setOutcome({
        text: `${done} ${succeeded.length} of ${counted(payload.results.length)}.`,
        failures,
        undo:
          succeeded.length === 0
            ? null
            : request.action === 'delete'
              ? { kind: 'restore', records: succeeded }
              : revert
                ? {
                    kind: 'revert',
                    ...revert,
                    previous: new Map([...before].map(([id, value]) => [id, storedValue(revert.fieldItem, value)])),
                  }
                : null,
        key: Date.now(),
      });
      setEveryMatchOf(null);
      if (request.action === 'delete' && succeeded.length > 0) onDeleted?.();
      onSelect(new Set(payload.results.filter((result) => !result.ok).map((result) => result.id)));
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        expire();
        return;
      }
      setOutcome({
        text: error instanceof ApiError ? error.message : 'Could not apply.',
        failures: [],
        undo: null,
        key: Date.now(),
      });
      // The matches changed since they were counted: the list shows them as they are now, to be confirmed anew.
      if (error instanceof ApiError && error.status === 409) onDone();
    } finally {
      setBusy(false);
    }
  };

  const undone = (text: (outcome: UndoOutcome) => string, outcome: UndoOutcome) => {
    setOutcome({ text: text(outcome), failures: outcome.failures, undo: null, key: Date.now() });
    onDone();
  };
  /** The field set back: one bulk request per value the records had (most often one or two). */
  const revert = async (undo: Undo & { kind: 'revert' }) => {
    const { label, previous, fieldItem } = undo;
    const done = await revertField(
      client,
      definition.name,
      undo,
      titleOf,
      (now) => `not set back, as its ${label} was changed since, to ${inWords(fieldItem, now)}.`,
      refusal,
    );
    undone((outcome) => `Set ${label} back on ${outcome.done} of ${counted(previous.size)}.`, done);
  };
  const undo = async (records: ResourceRecord[]) => {
    const done = await restoreRecords(client, definition.name, records, refusal);
    undone((outcome) => `Restored ${outcome.done} of ${counted(records.length)}.`, done);
  };

  // A viewer is told why on the list page (ReadOnlyRoleNotice), not offered actions the server would refuse.
  if (!mayChange || (!definition.canDelete && fields.length === 0)) return null;
  const newValue = field?.input === 'checkbox' ? value === 'true' : value === '' ? null : value;
  return (
    <>
      {ids.length > 0 && (
        <section ref={bar} className="bulk-actions" aria-label={`Act on selected ${what}`}>
          <p className="bulk-actions__count">
            {everyMatch ? `All ${counted(reached)} this list matches are selected` : `${ids.length} selected`}
          </p>
          {pageSelected && moreThanPage && !everyMatch && (
            <EveryMatchOffer
              page={page}
              nouns={nouns}
              buttonRef={everyMatchButton}
              onChoose={() => switchEveryMatch('every')}
            />
          )}
          {everyMatch && (
            <button
              ref={onlyPageButton}
              type="button"
              className="button button--ghost button--small"
              onClick={() => switchEveryMatch('page')}
            >
              Only the {counted(ids.length)} on this page
            </button>
          )}
          {fields.length > 0 && (
            <div className="bulk-actions__set">
              <label htmlFor={fieldId} className="field__label">
                Field to set
              </label>
              <select
                id={fieldId}
                className="input"
                value={fieldName}
                onChange={(event) => {
                  setFieldName(event.target.value);
                  setPicked('');
                }}
              >
                {fields.map((each) => (
                  <option key={each.name} value={each.name}>
                    {each.label}
                  </option>
                ))}
              </select>
              <label htmlFor={valueId} className="field__label">
                New value
              </label>
              <select id={valueId} className="input" value={value} onChange={(event) => setPicked(event.target.value)}>
                {offersEmpty && <option value="">(empty)</option>}
                {choices.map((choice) => (
                  <option key={choice} value={choice}>
                    {field?.input === 'checkbox' ? (choice === 'true' ? 'Ticked' : 'Not ticked') : choice}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="button button--secondary"
                aria-disabled={busy}
                onClick={() => {
                  if (!busy) setDialog.open();
                }}
              >
                Set on selected
              </button>
            </div>
          )}
          {definition.canDelete && (
            <button
              type="button"
              className="button button--danger"
              aria-disabled={busy}
              onClick={() => {
                if (!busy) dialog.open();
              }}
            >
              Delete selected
            </button>
          )}
        </section>
      )}
      {/* The count said as it changes (the bar above appears with the first row ticked, which is not announced), in
          words of its own: the bar's are on the page already, and one text twice is two matches for a finder. */}
      <p className="visually-hidden" role="status" data-bulk-selection>
        {ids.length === 0
          ? ''
          : everyMatch
            ? `Every one of the ${counted(reached)} this list matches is ticked for an action.`
            : `${counted(ids.length)} ticked for an action.`}
      </p>
      <div role="status" className="bulk-actions__outcome">
        {outcome && (
          <>
            <p>{outcome.text}</p>
            {outcome.failures.length > 0 && (
              <ul className="bulk-actions__failures">
                {outcome.failures.map((failure) => (
                  <li key={failure}>{failure}</li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
      {outcome?.undo && (
        <button
          ref={undoButton}
          type="button"
          className="button button--secondary button--small bulk-actions__undo"
          onClick={() => {
            // A second press while the first is on its way would undo again, and say the first's work failed.
            if (undoing.current) return;
            undoing.current = true;
            const { undo: what } = outcome;
            const done = what?.kind === 'restore' ? undo(what.records) : what?.kind === 'revert' ? revert(what) : null;
            void done?.finally(() => (undoing.current = false));
          }}
        >
          {outcome.undo.kind === 'restore' ? 'Undo delete' : `Undo: set ${outcome.undo.label} back`}
        </button>
      )}
      <ConfirmDialog
        control={setDialog}
        title={`Set ${field?.label ?? fieldName} to ${inWords(field, newValue)} on ${reachedWords}?`}
        confirmLabel="Set"
        onConfirm={() => {
          setDialog.close();
          const previous = new Map(
            ids.map((id) => [id, storedValue(field, rows.find((row) => row.id === id)?.[fieldName])] as const),
          );
          void send({ action: 'update', ...target(), values: { [fieldName]: newValue } }, 'Changed', {
            field: fieldName,
            fieldItem: field,
            label: field?.label ?? fieldName,
            setTo: newValue,
            previous,
          });
        }}
      >
        <p>Each record's own value is kept until then: you can undo this right after.</p>
      </ConfirmDialog>
      <ConfirmDialog
        control={dialog}
        title={`Delete ${reachedWords}?`}
        confirmLabel="Delete"
        onConfirm={() => {
          dialog.close();
          void send({ action: 'delete', ...target() }, 'Deleted');
        }}
      >
        <p>You can undo this, or restore them one by one from Recently deleted for a day.</p>
      </ConfirmDialog>
    </>
  );
}
