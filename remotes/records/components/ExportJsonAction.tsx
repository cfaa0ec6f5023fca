import type { PropsOf, ResourceActionSlotProps } from '../../kit';
import type remote from '../remote';

/** The resource-action context, then the props a slot gives it (inferred from its schema in remote.ts). */
export type ExportJsonActionProps = ResourceActionSlotProps<PropsOf<typeof remote, 'ExportJsonAction'>>;

/** `<prefix>-<resource>-<id>.json`, with anything but letters, digits, `-` and `_` replaced. */
export function exportFilename(prefix: unknown, resource: string, resourceId: number): string {
  const parts = [typeof prefix === 'string' && prefix !== '' ? prefix : 'export', resource, String(resourceId)];
  return `${parts.map((part) => part.replace(/[^A-Za-z0-9_-]+/g, '-')).join('-')}.json`;
}

/** Downloads the record, as the API returned it, as a JSON file. */
export function ExportJsonAction({ resource, resourceId, record, filenamePrefix }: ExportJsonActionProps) {
  const download = () => {
    const blob = new Blob([`${JSON.stringify(record, null, 2)}\n`], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = exportFilename(filenamePrefix, resource, resourceId);
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
    // Revoked after the click has been handled, so the download keeps its data.
    window.setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <button type="button" className="button button--secondary button--small" onClick={download}>
      Export JSON
    </button>
  );
}
