import {
  describe,
  FLAG_NAME_PATTERN,
  isPlainObject,
  isStaffPermission,
  permissionsOf,
  rolesForRules,
  STAFF_PERMISSIONS,
  SlotLocation,
  type JsonValue,
  type PlacementPreviewContext,
} from '../../shared';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import { HttpError } from '../http/http-error';
import type { Viewer } from '../slots/visibility-rule';
import type { TenantStore } from '../tenants/tenant-store';

/** `POST /api/placements/preview`'s body, checked. */
export interface PreviewRequest {
  /** Undefined: the saved draft. */
  document: JsonValue | undefined;
  /** Null: every location. */
  location: SlotLocation | null;
  context: PlacementPreviewContext;
}

const REQUEST_KEYS = ['document', 'location', 'context'];
const CONTEXT_KEYS = ['roles', 'permissions', 'tenant', 'flags'];
const MAX_ROLES = 16;
const MAX_FLAGS = 64;
const MAX_NAME_LENGTH = 128;
const EXAMPLE = '{ "context": { "roles": ["viewer"], "tenant": "acme" }, "location": "dashboard-before-cards" }';

/** Reads the body of a preview request; anything else than its documented shape is a 400 saying what is wrong. */
export function readPreviewRequest(body: unknown): PreviewRequest {
  if (!isPlainObject(body)) throw HttpError.invalidRequest(`Send ${EXAMPLE}.`);
  refuseUnknownKeys(body, REQUEST_KEYS, 'The preview request');
  let location: SlotLocation | null = null;
  if (body.location !== undefined) {
    location = typeof body.location === 'string' ? (SlotLocation.tryFrom(body.location) ?? null) : null;
    if (location === null) {
      throw HttpError.invalidRequest(
        `"location" must be one of ${SlotLocation.cases()
          .map((known) => known.value)
          .join(', ')}; got ${describe(body.location)}.`,
      );
    }
  }
  const { context } = body;
  if (!isPlainObject(context)) {
    throw HttpError.invalidRequest(`"context" must say who the preview is for, e.g. ${EXAMPLE}.`);
  }
  refuseUnknownKeys(context, CONTEXT_KEYS, '"context"');
  const roles = namesOf(context.roles, '"context.roles"', MAX_ROLES, (name) => name.length <= MAX_NAME_LENGTH);
  if (typeof context.tenant !== 'string' || context.tenant.length === 0 || context.tenant.length > MAX_NAME_LENGTH) {
    throw HttpError.invalidRequest(`"context.tenant" must be a tenant's id, got ${describe(context.tenant)}.`);
  }
  const checked: PlacementPreviewContext = { roles, tenant: context.tenant };
  if (context.permissions !== undefined) {
    checked.permissions = namesOf(context.permissions, '"context.permissions"', STAFF_PERMISSIONS.length, (name) =>
      isStaffPermission(name),
    );
  }
  if (context.flags !== undefined) {
    checked.flags = namesOf(context.flags, '"context.flags"', MAX_FLAGS, (name) => FLAG_NAME_PATTERN.test(name));
  }
  return { document: body.document as JsonValue | undefined, location, context: checked };
}

/**
 * The viewer the preview's rules are evaluated for, as `/meta` makes one for a signed-in request
 * (slots/request-viewer.ts): the permissions its roles grant (and those given on top), roles as rules see them, the
 * tenant (which must exist: 400 otherwise, so a
 * typing error is not previewed as "a tenant no rule names"), and the flags given or those on for that tenant.
 */
export async function previewViewer(
  context: PlacementPreviewContext,
  tenants: TenantStore,
  flags: FeatureFlagStore,
): Promise<Viewer> {
  if ((await tenants.get(context.tenant)) === undefined) {
    throw HttpError.invalidRequest(`There is no tenant "${context.tenant}".`);
  }
  const permissions = permissionsOf(context.roles, context.permissions);
  return {
    roles: rolesForRules(context.roles, permissions),
    permissions,
    tenant: context.tenant,
    flags: context.flags === undefined ? await flags.enabledFor(context.tenant) : new Set(context.flags),
  };
}

function refuseUnknownKeys(value: Record<string, unknown>, allowed: readonly string[], what: string): void {
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw HttpError.invalidRequest(`${what} has unknown key(s) ${unknown.join(', ')}; allowed: ${allowed.join(', ')}.`);
  }
}

function namesOf(value: unknown, what: string, max: number, valid: (name: string) => boolean): string[] {
  if (
    !Array.isArray(value) ||
    value.length > max ||
    !value.every((name) => typeof name === 'string' && name.length > 0 && valid(name))
  ) {
    throw HttpError.invalidRequest(`${what} must be a list of at most ${max} names, got ${describe(value)}.`);
  }
  return [...new Set(value as string[])];
}
