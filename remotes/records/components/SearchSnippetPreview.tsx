import type { FormSlotProps, PropsOf } from '../../kit';
import type remote from '../remote';

/** `resource` and `formContext` from the form, then the props a slot gives it (its schema in remote.ts). */
export type SearchSnippetPreviewProps = FormSlotProps<PropsOf<typeof remote, 'SearchSnippetPreview'>>;

export const TITLE_LIMIT = 60;
export const DESCRIPTION_LIMIT = 160;

/** A text's length in characters as the server counts them (code points: an emoji is one, not two UTF-16 units). */
export function characterCount(text: string): number {
  return [...text].length;
}

/**
 * Whitespace collapsed, cut at a word boundary before `limit` characters (code points, as the server counts them) with
 * an ellipsis, never inside a character as a person sees it (an emoji, a flag of two code points).
 */
export function truncate(text: string, limit: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (characterCount(clean) <= limit) return clean;
  let cut = '';
  let counted = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(clean)) {
    counted += characterCount(segment);
    if (counted > limit - 1) break;
    cut += segment;
  }
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > cut.length * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/** How the record would look as a search result, with the length budget of its title and description. */
export function SearchSnippetPreview({ resource, formContext, titleField, bodyField }: SearchSnippetPreviewProps) {
  const rawTitle = formContext.values[titleField];
  const rawBody = formContext.values[bodyField];
  const title = typeof rawTitle === 'string' ? rawTitle : '';
  const body = typeof rawBody === 'string' ? rawBody : '';
  const slug = formContext.values.slug;
  const titleLength = characterCount(title.trim());

  return (
    <div className="form-widget snippet">
      <p className="form-widget__label">Search preview</p>
      <div className="snippet__result">
        <p className="snippet__url">
          {window.location.host} › {resource}
          {typeof slug === 'string' && slug !== '' ? ` › ${slug}` : ''}
        </p>
        <p className="snippet__title">{truncate(title, TITLE_LIMIT) || 'Untitled'}</p>
        <p className="snippet__body">{truncate(body, DESCRIPTION_LIMIT) || 'Add a body to get a description.'}</p>
      </div>
      <p className="muted snippet__budget">
        Title {titleLength}/{TITLE_LIMIT}
        {titleLength > TITLE_LIMIT ? ' (will be cut)' : ''} · Description {Math.min(characterCount(body.trim()), 9999)}/
        {DESCRIPTION_LIMIT}
      </p>
    </div>
  );
}
