import type { IRouter } from 'express';
import { pageComponents, SIGN_IN_PATH, type JsonSchema, type SlotMap, type SlotSchemasPayload } from '../../shared';
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
 * has no such route (404), so the check costs a production page nothing. A signed-in user gets every component's
 * schema; anyone else those of the components the public slots name (what `GET /slots` and the remotes' public
 * descriptors show already), so the sign-in page's slots are checked too (mount the session chain on its path first).
 */
export function addSlotSchemasRoute(router: IRouter, remoteRegistry: RemoteRegistry, publicSlots: () => SlotMap): void {
  let body = { version: -1, json: '' };
  let publicBody = { version: -1, slots: null as SlotMap | null, json: '' };
  jsonRoute(router, '/api/slots/schemas', {
    GET: [
      (req, res) => {
        if (body.version !== remoteRegistry.version) {
          body = { version: remoteRegistry.version, json: JSON.stringify(slotSchemas(remoteRegistry)) };
        }
        if (req.user) {
          res.type('application/json').send(body.json);
          return;
        }
        const slots = publicSlots();
        if (publicBody.version !== remoteRegistry.version || publicBody.slots !== slots) {
          const named = new Set([SIGN_IN_PATH, '/'].flatMap((path) => [...pageComponents(path, slots).keys()]));
          const { schemas } = slotSchemas(remoteRegistry);
          const shown = Object.fromEntries(Object.entries(schemas).filter(([component]) => named.has(component)));
          publicBody = {
            version: remoteRegistry.version,
            slots,
            json: JSON.stringify({ schemas: shown, partial: true }),
          };
        }
        res.type('application/json').send(publicBody.json);
      },
    ],
  });
}
