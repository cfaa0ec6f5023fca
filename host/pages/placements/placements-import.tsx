import { useEffect, useRef, useState } from 'react';
import { describe, isPlainObject, type JsonValue, type PlacementsDraftPayload } from '../../../shared';
import { unknownTopKeys, unknownTopKeysMessage } from '../../../shared/placements-file-keys';
import type { ConfirmQuestion } from '../../layout/confirm-question';
import { countOf } from '../common/count-in-words';
import { asDocument } from './placements-draft';

export interface PlacementsImportProps {
  /** Sends the file's JSON to the import route; a refusal (the server's, a 409) is given to `refused`. */
  importJson(json: JsonValue, refused: (message: string) => void): void;
  /** Clears the page's status of an earlier action (an import before): a refusal here would leave it as current. */
  forgetOutcome(): void;
}

/**
 * Brings a REMOTES_CONFIG file (or an exported revision) into the draft: chosen as a file, whose text is shown
 * before it is sent, or pasted. The server keeps its placements and names what it dropped. What is refused here (not
 * JSON, not a document, an unknown key, a file not read) describes the text, which takes the focus to have it read
 * out: left on Import, nothing would say it.
 */
export function PlacementsImport({ importJson, forgetOutcome }: PlacementsImportProps) {
  const [text, setText] = useState('');
  // An object, new at each refusal: the same refusal twice takes the focus again.
  const [refusal, setRefusal] = useState<{ message: string } | null>(null);
  const error = refusal?.message ?? null;
  const setError = (message: string | null) => {
    // Every refusal of an import is said here, the server's too; the status of an earlier import would contradict it.
    if (message !== null) forgetOutcome();
    setRefusal(message === null ? null : { message });
  };
  const textArea = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    // After the render that describes the text by the refusal, so that it is read with the field.
    if (refusal) textArea.current?.focus();
  }, [refusal]);

  const choose = (file: File | undefined) => {
    if (file === undefined) return;
    // FileReader rather than file.text(): the same in every browser the host supports.
    const reader = new FileReader();
    reader.onload = () => {
      setText(typeof reader.result === 'string' ? reader.result : '');
      setError(null);
    };
    reader.onerror = () => setError(`${file.name} could not be read.`);
    reader.readAsText(file);
  };

  const send = () => {
    let json: JsonValue;
    try {
      json = JSON.parse(text) as JsonValue;
    } catch (parseError) {
      setError(`Not JSON: ${(parseError as Error).message}`);
      return;
    }
    if (!isPlainObject(json)) {
      setError(`Not a placements document: a JSON object { "remotes": [...] } is, not ${describe(json)}.`);
      return;
    }
    // Refused before it is sent, in the server's words (it refuses such a file too: placements-router.ts says why).
    const unknown = unknownTopKeys(json);
    if (unknown.length > 0) {
      setError(unknownTopKeysMessage(unknown));
      return;
    }
    setError(null);
    importJson(json, (message) => setError(`Not imported: ${message}`));
  };

  return (
    <section
      className="inspector__section placements__import"
      aria-labelledby="placements-import"
      data-placements-import
    >
      <h2 id="placements-import">Import</h2>
      <p className="muted">
        A REMOTES_CONFIG file or an exported revision replaces the draft: its placements are kept, the rest (entries,
        origins…) is dropped and named. A file with a top-level key of neither is refused, the draft unchanged.
      </p>
      <div className="form__field">
        <label htmlFor="placements-import-file">JSON file to import</label>
        <input
          id="placements-import-file"
          type="file"
          accept="application/json,.json"
          onChange={(event) => choose(event.target.files?.[0])}
        />
      </div>
      <div className="form__field">
        <label htmlFor="placements-import-text">JSON to import (chosen file or pasted)</label>
        <textarea
          ref={textArea}
          id="placements-import-text"
          rows={4}
          value={text}
          aria-invalid={error !== null}
          aria-describedby={error === null ? undefined : 'placements-import-error'}
          onChange={(event) => setText(event.target.value)}
        />
        {error !== null && (
          <p className="field__error" id="placements-import-error">
            {error}
          </p>
        )}
      </div>
      <button type="button" className="button button--secondary" disabled={text.trim() === ''} onClick={send}>
        Import into the draft
      </button>
    </section>
  );
}

/**
 * What an import asks first: it replaces the draft, so the saved draft's changes not published yet (perhaps another
 * operator's) are lost, as a rollback says of them, and so are the page's unsaved ones.
 */
export function importQuestion(draft: { savedChanges: boolean; unsaved: boolean }): ConfirmQuestion {
  const lost = [
    draft.savedChanges
      ? 'The saved draft differs from what is published: its changes are replaced by the imported placements and lost.'
      : 'The import replaces the draft:',
    draft.unsaved ? 'your unsaved changes are dropped.' : '',
  ];
  return {
    title: draft.savedChanges ? 'Import over the saved draft?' : 'Import over your unsaved changes?',
    body: draft.savedChanges && draft.unsaved ? `${lost[0]} So are your unsaved changes.` : lost.join(' ').trim(),
    confirmLabel: 'Import',
  };
}

/** What an import kept (counted in the draft the server saved) and what it dropped, in words. */
export function importOutcome(payload: PlacementsDraftPayload): string {
  const document = asDocument(payload.draft.document);
  const count = (lists: Array<Record<string, JsonValue[]> | undefined>) =>
    lists.reduce((sum, byKey) => sum + Object.values(byKey ?? {}).reduce((n, list) => n + list.length, 0), 0);
  const slots = count((document.remotes ?? []).map((entry) => entry.slots));
  const forms = count((document.remotes ?? []).map((entry) => entry.forms));
  const allowLists = Object.keys(document.locations ?? {}).length;
  const ignored = payload.ignored ?? [];
  return (
    `Imported into the draft: ${countOf(slots, 'slot')}, ${countOf(forms, 'form slot')}, ` +
    `${countOf(allowLists, 'allow-list')} kept; ` +
    (ignored.length === 0 ? 'nothing dropped.' : `dropped as not placements: ${ignored.join(', ')}.`) +
    (payload.problems.length === 0 ? '' : ` ${countOf(payload.problems.length, 'problem')}.`)
  );
}
