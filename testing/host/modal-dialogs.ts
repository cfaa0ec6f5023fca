/**
 * jsdom has no modal dialogs: for the suite that calls it, `showModal` only opens a <dialog> and `close` closes it and
 * says so (its close event), as the browser's do: the event in a task of its own, after close() has returned (the
 * HTML standard's "queue an element task"), so a page may act (open it again) before it arrives. What a modal also
 * does (the page behind inert, the focus given back) is the app's own (ConfirmDialog) or checked in Chromium
 * (tests/browser).
 */
export function fakeModalDialogs(): void {
  const dialog = HTMLDialogElement.prototype as Partial<Pick<HTMLDialogElement, 'showModal' | 'close'>>;
  beforeAll(() => {
    dialog.showModal = function (this: HTMLDialogElement) {
      this.open = true;
    };
    dialog.close = function (this: HTMLDialogElement) {
      if (!this.open) return;
      this.open = false;
      setTimeout(() => this.dispatchEvent(new Event('close')), 0);
    };
  });
  afterAll(() => {
    delete dialog.showModal;
    delete dialog.close;
  });
}
