import { useEffect, useId, useMemo, useRef, type ReactNode, type RefObject } from 'react';
import { keepTabInside, returnFocus } from './dialog-focus';

/** What opens and closes a ConfirmDialog: made by useConfirmDialog in the component holding the asking button. */
export interface ConfirmDialogControl {
  readonly dialogRef: RefObject<HTMLDialogElement | null>;
  readonly cancelRef: RefObject<HTMLButtonElement | null>;
  /** What had the focus when the dialog opened (the asking button): it gets it back when the dialog closes. */
  readonly openerRef: RefObject<HTMLElement | null>;
  /** What a closing does (the dialog's onClose, the focus given back): set by the ConfirmDialog it controls. */
  readonly whenClosedRef: RefObject<(() => void) | null>;
  /** Shows the dialog, the focus on Cancel. */
  open(): void;
  /** Closes the dialog and does what a closing does, at once. */
  close(): void;
  /**
   * Whether a close event is one that close() above already acted on. The browser fires it in a task of its own, after
   * close() returns: by then the page may have asked again (Enter on the asking button right after Escape, on a busy
   * page), and acting on it then would end the new question.
   */
  tookCloseEvent(): boolean;
}

export function useConfirmDialog(): ConfirmDialogControl {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const openerRef = useRef<HTMLElement>(null);
  const whenClosedRef = useRef<(() => void) | null>(null);
  const closeEventsDue = useRef(0);
  return useMemo(
    () => ({
      dialogRef,
      cancelRef,
      openerRef,
      whenClosedRef,
      open: () => {
        const active = document.activeElement;
        openerRef.current = active instanceof HTMLElement && active !== document.body ? active : null;
        dialogRef.current?.showModal();
        // Cancel rather than the action takes the focus, so that a slip of Enter changes nothing.
        cancelRef.current?.focus();
      },
      close: () => {
        const dialog = dialogRef.current;
        if (!dialog?.open) return;
        closeEventsDue.current += 1;
        dialog.close();
        whenClosedRef.current?.();
      },
      tookCloseEvent: () => {
        if (closeEventsDue.current === 0) return false;
        closeEventsDue.current -= 1;
        return true;
      },
    }),
    [],
  );
}

export interface ConfirmDialogProps {
  control: ConfirmDialogControl;
  /** The question, e.g. `Delete “Spring launch”?`; it names the dialog. */
  title: ReactNode;
  /** What confirming does, and a problem to read out if the action was refused; it describes the dialog. */
  children: ReactNode;
  /** The action's button, e.g. "Delete" (or "Deleting…" while busy). */
  confirmLabel: string;
  /** The action's button's look: `danger` (the default) for what takes something away, `primary` otherwise. */
  tone?: 'danger' | 'primary';
  busy?: boolean;
  /**
   * False when the action would do nothing (a publish of what is already published): the dialog then says why in its
   * body and offers Close alone, rather than a button that makes a change nobody asked for.
   */
  confirmOffered?: boolean;
  onConfirm(): void;
  onClose?(): void;
}

/**
 * Asks again before an action (a delete, a publish, an activation, a rollback): a modal dialog, the browser's own, so
 * the page behind is inert, and Tab goes round its buttons (keepTabInside). It opens on Cancel; the action's button
 * comes first, Shift+Tab away. Escape cancels (handled here, the same in every engine), and a cancel gives the focus back to the button that
 * opened it; after a confirmed action the page places it where its outcome is (its status, the changed row).
 */
export function ConfirmDialog({
  control,
  title,
  children,
  confirmLabel,
  tone = 'danger',
  busy = false,
  confirmOffered = true,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    control.whenClosedRef.current = () => {
      onClose?.();
      returnFocus(control.dialogRef.current, control.openerRef.current);
    };
  });
  return (
    <dialog
      ref={control.dialogRef}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onKeyDown={(event) => {
        keepTabInside(event);
        if (event.key !== 'Escape') return;
        event.preventDefault();
        control.close();
      }}
      onClose={() => {
        // Closed by close() (already acted on), or by the browser itself while open again: nothing more to do.
        if (control.tookCloseEvent() || control.dialogRef.current?.open) return;
        control.whenClosedRef.current?.();
      }}
    >
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <div id={bodyId}>{children}</div>
      <div className="dialog__actions">
        {confirmOffered && (
          <button
            type="button"
            className={`button button--${tone}`}
            aria-disabled={busy || undefined}
            onClick={onConfirm}
          >
            {confirmLabel}
          </button>
        )}
        <button ref={control.cancelRef} type="button" className="button button--secondary" onClick={control.close}>
          {confirmOffered ? 'Cancel' : 'Close'}
        </button>
      </div>
    </dialog>
  );
}
