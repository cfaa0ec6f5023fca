import type { FormSlotProps, PropsOf } from '../../kit';
// The server's word search folds these letters alike (a contract file, bundled with this remote).
import { spellUndecomposedLetters } from '../../../shared/undecomposed-letters';
import type remote from '../remote';

/** `resource` and `formContext` from the form, then the props a slot gives it (its schema in remote.ts). */
export type SlugPreviewProps = FormSlotProps<PropsOf<typeof remote, 'SlugPreview'>>;

/**
 * `Hello, World!` -> `hello-world`: lower case ASCII letters and digits joined by single dashes. Accents are dropped,
 * and letters without a decomposition spelled as staff type them (`Søren Ærø` -> `soren-aero`, `Straße` -> `strasse`).
 */
export function slugify(text: string): string {
  return spellUndecomposedLetters(
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase(),
  )
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
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
        disabled={slug === '' || inSync}
        onClick={() => formContext.setValue(target, slug)}
      >
        {inSync ? `“${target}” is up to date` : `Use as ${target}`}
      </button>
    </div>
  );
}
