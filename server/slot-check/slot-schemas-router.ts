import type { IRouter } from 'express';
import type { JsonSchema, SlotSchemasPayload } from '../../shared';
import { requireSession } from '../auth/require-session';
import { jsonRoute } from '../http/json-route';
import type { RemoteRegistry } from '../remotes/remote-registry';

/** Component -> props schema, for every component of the remotes known now that declares one. */
export function slotSchemas(remoteRegistry: RemoteRegistry): SlotSchemasPayload {
  const schemas: Record<string, JsonSchema> = {};
  for (const remote of remoteRegistry.contractRemotes().known) Object.assign(schemas, remote.props ?? {});
  return { schemas };
}

/**
 * `GET /api/slots/schemas`, mounted by development servers only: the host checks a slot's props against its
 * component's schema before rendering it and shows what is wrong in the development placeholder. A production server
 * has no such route (404), so the check costs a production page nothing. Signed-in users only, like the rest of
 * `/api/slots` (mount the session chain on its path first): 401 otherwise, and the host then renders unchecked.
 */
export function addSlotSchemasRoute(router: IRouter, remoteRegistry: RemoteRegistry): void {
  let body = { version: -1, json: '' };
  jsonRoute(router, '/api/slots/schemas', {
    GET: [
      requireSession,
      (_req, res) => {
        if (body.version !== remoteRegistry.version) {
          body = { version: remoteRegistry.version, json: JSON.stringify(slotSchemas(remoteRegistry)) };
        }
        res.type('application/json').send(body.json);
      },
    ],
  });
}
