import type { FormSlotProps, PropsOf } from '../../kit';
// The server's word search folds these letters alike (a contract file, bundled with this remote).
import { spellUndecomposedLetters } from '../../../shared/undecomposed-letters';
import type remote from '../remote';

/** `resource` and `formContext` from the form, then the props a slot gives it (its schema in remote.ts). */
export type SlugPreviewProps = FormSlotProps<PropsOf<typeof remote, 'SlugPreview'>>;

/** How long a slug may be, in code points (as the server counts a field's length). */
const SLUG_MAX = 80;

const CHARACTERS = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * `Hello, World!` -> `hello-world`: the letters and digits of every script, lower-cased, joined by single dashes
 * (`Москва отчёт` -> `москва-отчёт`, `3 مقالات جديدة` -> `3-مقالات-جديدة`); it kept a-z and 0-9 alone, which left a
 * title in another script no slug. Latin letters lose their accents, and letters without a decomposition are spelled
 * as staff type them (`Søren Ærø` -> `soren-aero`, `Straße` -> `strasse`); the marks of other scripts belong to their
 * letters (a Devanagari vowel sign, the breve of Cyrillic й) and stay, NFKC-normalised (half-width `ｶﾞ` -> `ガ`).
 * At most SLUG_MAX, never cut inside a character as a person sees it (a letter and its vowel sign).
 */
export function slugify(text: string): string {
  const slug = spellUndecomposedLetters(
    text
      .normalize('NFKD')
      .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
      .normalize('NFKC')
      .toLowerCase(),
  )
    // The joiners inside Persian and Indic words are invisible: dropped, not made into dashes that split a word.
    .replace(/[\u200c\u200d]/g, '')
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  let kept = '';
  let used = 0;
  for (const { segment } of CHARACTERS.segment(slug)) {
    used += [...segment].length;
    if (used > SLUG_MAX) break;
    kept += segment;
  }
  return kept.replace(/-+$/, '');
}

/**
 * Previews the slug made from one form field (`source`) and, on request, writes it into another (`target`), through
 * the form context the host hands to form slots.
 */
export function SlugPreview({ resource, formContext, source, target }: SlugPreviewProps) {
  const sourceValue = formContext.values[source];
  const currentValue = formContext.values[target];
  const slug = slugify(typeof sourceValue === 'string' ? sourceValue : '');
  const current = typeof currentValue === 'string' ? currentValue : '';
  const inSync = slug !== '' && slug === current;
  const usable = slug !== '' && !inSync;

  return (
    <div className="form-widget slug-preview">
      <p className="form-widget__label">Slug preview</p>
      <p className="slug-preview__url">
        <span className="muted">/{resource}/</span>
        <code>{slug || '…'}</code>
      </p>
      <button
        type="button"
        className="button button--secondary button--small"
        // aria-disabled, not disabled: pressed, the button is at once up to date, and a disabled one lost the focus
        // to the page's body (the keyboard user was sent back to its top); this one keeps it, and says the new state.
        aria-disabled={!usable}
        onClick={() => {
          if (usable) formContext.setValue(target, slug);
        }}
      >
        {inSync ? `“${target}” is up to date` : `Use as ${target}`}
      </button>
    </div>
  );
}
