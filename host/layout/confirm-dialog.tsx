import { useId, useMemo, useRef, type ReactNode, type RefObject } from 'react';

/** What opens and closes a ConfirmDialog: made by useConfirmDialog in the component holding the asking button. */
export interface ConfirmDialogControl {
  readonly dialogRef: RefObject<HTMLDialogElement | null>;
  readonly cancelRef: RefObject<HTMLButtonElement | null>;
  /** Shows the dialog, the focus on Cancel. */
  open(): void;
  close(): void;
}

export function useConfirmDialog(): ConfirmDialogControl {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  return useMemo(
    () => ({
      dialogRef,
      cancelRef,
      open: () => {
        dialogRef.current?.showModal();
        // Cancel rather than the action takes the focus, so that a slip of Enter changes nothing.
        cancelRef.current?.focus();
      },
      close: () => dialogRef.current?.close(),
    }),
    [],
  );
}

export interface ConfirmDialogProps {
  control: ConfirmDialogControl;
  /** The question, e.g. `Delete “Spring launch”?`; it names the dialog. */
  title: ReactNode;
  /** What confirming does, and a problem to read out if the action was refused. */
  children: ReactNode;
  /** The action's button, e.g. "Delete" (or "Deleting…" while busy). */
  confirmLabel: string;
  /** The action's button's look: `danger` (the default) for what takes something away, `primary` otherwise. */
  tone?: 'danger' | 'primary';
  busy?: boolean;
  onConfirm(): void;
  onClose?(): void;
}

/**
 * Asks again before an action that takes something away (a delete): a modal dialog, the browser's own, so it keeps
 * the focus inside, Escape closes it, and the focus goes back to the button that opened it. It opens on Cancel; the
 * action's button comes first, Shift+Tab away.
 */
export function ConfirmDialog({
  control,
  title,
  children,
  confirmLabel,
  tone = 'danger',
  busy = false,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const titleId = useId();
  return (
    <dialog ref={control.dialogRef} className="dialog" aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      {children}
      <div className="dialog__actions">
        <button
          type="button"
          className={`button button--${tone}`}
          aria-disabled={busy || undefined}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
        <button ref={control.cancelRef} type="button" className="button button--secondary" onClick={control.close}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
