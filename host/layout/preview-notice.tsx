import { useState } from 'react';
import { ApiError, useApiClient, useSlotRuntime } from '../core';

/** "release 2 of team_records", and a list of them joined as a sentence says it. */
function describePreviews(previews: readonly { remote: string; version: string }[]): string {
  const each = previews.map(({ remote, version }) => `release ${version} of ${remote}`);
  return each.length === 1 ? each[0]! : `${each.slice(0, -1).join(', ')} and ${each.at(-1)!}`;
}

/**
 * Says on every page that this page runs releases the session previews (set on the releases page by an operator):
 * its components are not the ones everyone else gets, and a preview set days ago is easily forgotten, when it was
 * said on the releases page only. The button ends every preview (`DELETE /api/remotes/<name>/preview`) and loads the
 * page again, with the releases in force; a refusal is said beside it, the previews left as they were.
 */
export function PreviewNotice({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const { previewedReleases } = useSlotRuntime();
  const client = useApiClient();
  const [stopping, setStopping] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (previewedReleases.length === 0) return null;
  const stop = async () => {
    setStopping(true);
    setFailure(null);
    try {
      for (const { remote } of previewedReleases) {
        await client.delete(`/api/remotes/${encodeURIComponent(remote)}/preview`);
      }
      reload();
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : String(error));
      setStopping(false);
    }
  };
  return (
    <div className="callout callout--info preview-notice" data-preview-notice="">
      <p className="callout__body">
        This page runs {describePreviews(previewedReleases)}, which your session previews: everyone else gets the
        releases in force.
      </p>
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={stopping}
        onClick={() => void stop()}
      >
        {stopping ? 'Stopping…' : 'Stop previewing'}
      </button>
      {failure !== null && (
        <p className="form-error" role="alert">
          The preview was not stopped: {failure}
        </p>
      )}
    </div>
  );
}
