/**
 * jsdom has no modal dialogs: for the suite that calls it, `showModal` only opens a <dialog> and `close` closes it and
 * says so (its close event), as the browser's do; what a modal also does (the page behind inert, the focus given back)
 * is the app's own (ConfirmDialog) or checked in Chromium (tests/browser).
 */
export function fakeModalDialogs(): void {
  const dialog = HTMLDialogElement.prototype as Partial<Pick<HTMLDialogElement, 'showModal' | 'close'>>;
  beforeAll(() => {
    dialog.showModal = function (this: HTMLDialogElement) {
      this.open = true;
    };
    dialog.close = function (this: HTMLDialogElement) {
      this.open = false;
      this.dispatchEvent(new Event('close'));
    };
  });
  afterAll(() => {
    delete dialog.showModal;
    delete dialog.close;
  });
}
