import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { HOST_BEFORE_LEAVE_EVENT } from '../../shared';
import { ExternalStore } from '../loader/external-store';

/** What the user is asked before unsaved changes would be lost. */
export const UNSAVED_CHANGES_MESSAGE = 'You have unsaved changes. Leave this page and discard them?';

/**
 * Which parts of the page hold unsaved changes (an edit form, one entry per form); its value says whether any does.
 * Read at the moment something would discard them, so it is a plain store rather than React state: a navigation
 * asks it synchronously.
 */
class UnsavedChanges extends ExternalStore<boolean> {
  private readonly owners = new Set<object>();

  constructor() {
    super(false);
  }

  set(owner: object, unsaved: boolean): void {
    if (unsaved) this.owners.add(owner);
    else this.owners.delete(owner);
    this.publish(this.owners.size > 0);
  }

  any(): boolean {
    return this.snapshot();
  }

  /** True when nothing unsaved would be lost, or the user agreed to lose it. */
  confirmLeave(): boolean {
    return !this.any() || window.confirm(UNSAVED_CHANGES_MESSAGE);
  }
}

const UnsavedChangesContext = createContext<UnsavedChanges | null>(null);

function useStore(): UnsavedChanges {
  const store = useContext(UnsavedChangesContext);
  if (!store) {
    throw new Error(
      'An unsaved-changes hook was called outside <UnsavedChangesProvider>. Wrap the app (or the test) in it so ' +
        'forms, navigation and the tenant switch agree on whether changes would be lost.',
    );
  }
  return store;
}

/**
 * Guards unsaved changes outside the router's reach (the router's own navigations: UnsavedChangesPrompt): a reload or closing the tab (the browser's own prompt, only
 * while something is unsaved), and whatever a remote announces with HOST_BEFORE_LEAVE_EVENT (a tenant switch).
 */
export function UnsavedChangesProvider({ children }: { children?: ReactNode }) {
  const [store] = useState(() => new UnsavedChanges());

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    // Listening only while something is unsaved keeps the page eligible for the back/forward cache otherwise.
    const follow = () => {
      if (store.any()) window.addEventListener('beforeunload', onBeforeUnload);
      else window.removeEventListener('beforeunload', onBeforeUnload);
    };
    const onBeforeLeave = (event: Event) => {
      if (!store.confirmLeave()) event.preventDefault();
    };
    window.addEventListener(HOST_BEFORE_LEAVE_EVENT, onBeforeLeave);
    const unsubscribe = store.subscribe(follow);
    follow();
    return () => {
      unsubscribe();
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener(HOST_BEFORE_LEAVE_EVENT, onBeforeLeave);
    };
  }, [store]);

  return <UnsavedChangesContext.Provider value={store}>{children}</UnsavedChangesContext.Provider>;
}

/** Declares whether the calling component holds unsaved changes; they stop counting when it unmounts. */
export function useUnsavedChanges(unsaved: boolean): void {
  const store = useStore();
  const [owner] = useState(() => ({}));
  useEffect(() => {
    store.set(owner, unsaved);
    return () => store.set(owner, false);
  }, [store, owner, unsaved]);
}

export interface LeaveGuard {
  /** Whether anything on the page is unsaved now. */
  unsaved(): boolean;
  /** True when nothing unsaved would be lost, or the user agreed to lose it (asks only in the first case). */
  confirmLeave(): boolean;
}

/** For what would discard the page: a navigation (UnsavedChangesPrompt), signing out. */
export function useLeaveGuard(): LeaveGuard {
  const store = useStore();
  return useMemo(() => ({ unsaved: () => store.any(), confirmLeave: () => store.confirmLeave() }), [store]);
}
