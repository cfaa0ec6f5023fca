/**
 * jsdom has no browser's default style sheet: every element's `display` is '', which the accessible name computation
 * reads as a block and puts spaces around, so a dialog titled `Delete “<bdi>Winter sale</bdi>”?` was named
 * `Delete “ Winter sale ”?` in the host's tests and `Delete “Winter sale”?` in every browser. The pages isolate the
 * text people give in `<bdi>` (their own direction, a Hebrew or Arabic title in an English sentence): shown inline
 * here as browsers show it, they are named as in a browser. (Not in the files of this project that run in Node.)
 */
if (typeof document !== 'undefined') {
  const style = document.createElement('style');
  style.textContent = 'bdi { display: inline; }';
  document.head.append(style);
}
