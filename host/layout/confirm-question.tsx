import { useCallback, useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { ConfirmDialog, useConfirmDialog } from './confirm-dialog';

/** A question asked in the app's ConfirmDialog before an action. */
export interface ConfirmQuestion {
  /** The question, e.g. `Activate team_records to 1.2.0?`; it names the dialog. */
  title: string;
  /** What the action does, read as the dialog's description. */
  body: ReactNode;
  /** The action's button, e.g. "Activate". */
  confirmLabel: string;
  tone?: 'danger' | 'primary';
}

export interface AskConfirmation {
  /** Opens the dialog with the question; resolves true when confirmed, false when cancelled (Cancel, Escape). */
  ask(question: ConfirmQuestion): Promise<boolean>;
  /** The dialog to render once, anywhere in the asking component. */
  dialog: ReactElement;
}

/**
 * The app's confirmation as an answer to wait for, in place of `window.confirm`: for an action decided in code
 * (a release change, a rollback) rather than by the button that shows the dialog. One question at a time: asking
 * again answers the one before with no.
 */
export function useConfirmQuestion(): AskConfirmation {
  const control = useConfirmDialog();
  const [question, setQuestion] = useState<{ asked: ConfirmQuestion } | null>(null);
  const answer = useRef<((confirmed: boolean) => void) | null>(null);
  const settle = useCallback((confirmed: boolean) => {
    const resolve = answer.current;
    answer.current = null;
    resolve?.(confirmed);
  }, []);

  // Opened once the question is rendered in it (the focus still on the button that asked), closed unanswered when
  // the page goes.
  useEffect(() => {
    if (question !== null && answer.current !== null) control.open();
  }, [question, control]);
  useEffect(() => () => settle(false), [settle]);

  const ask = useCallback(
    (asked: ConfirmQuestion) =>
      new Promise<boolean>((resolve) => {
        settle(false);
        answer.current = resolve;
        setQuestion({ asked });
      }),
    [settle],
  );

  const asked = question?.asked;
  const dialog = (
    <ConfirmDialog
      control={control}
      title={asked?.title ?? ''}
      confirmLabel={asked?.confirmLabel ?? ''}
      tone={asked?.tone}
      onConfirm={() => {
        settle(true);
        control.close();
      }}
      onClose={() => settle(false)}
    >
      {typeof asked?.body === 'string' ? <p>{asked.body}</p> : asked?.body}
    </ConfirmDialog>
  );
  return { ask, dialog };
}
