import {
  describe,
  FLAG_NAME_PATTERN,
  invalidFlagNamesMessage,
  isPlainObject,
  isStaffPermission,
  isStaffRole,
  permissionsOf,
  rolesForRules,
  STAFF_PERMISSIONS,
  STAFF_ROLES,
  SlotLocation,
  unknownNamesMessage,
  type JsonValue,
  type PlacementPreviewContext,
} from '../../shared';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import { HttpError } from '../http/http-error';
import type { ReadableTenants } from '../slots/shown-rule';
import type { Viewer } from '../slots/visibility-rule';
import type { TenantStore } from '../tenants/tenant-store';
import { refuseUnknownKeys } from './placements-request-body';

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
  // Only the staff roles: an account holds no other, so a preview as "admin" would show what nobody sees.
  const roles = namesOf(context.roles, '"context.roles"', MAX_ROLES, (names) => {
    const unknown = names.filter((name) => !isStaffRole(name));
    return unknown.length === 0 ? null : unknownNamesMessage('roles', unknown, STAFF_ROLES);
  });
  if (typeof context.tenant !== 'string' || context.tenant.length === 0 || context.tenant.length > MAX_NAME_LENGTH) {
    throw HttpError.invalidRequest(`"context.tenant" must be a tenant's id, got ${describe(context.tenant)}.`);
  }
  const checked: PlacementPreviewContext = { roles, tenant: context.tenant };
  if (context.permissions !== undefined) {
    checked.permissions = namesOf(context.permissions, '"context.permissions"', STAFF_PERMISSIONS.length, (names) => {
      const unknown = names.filter((name) => !isStaffPermission(name));
      return unknown.length === 0 ? null : unknownNamesMessage('permissions', unknown, STAFF_PERMISSIONS);
    });
  }
  if (context.flags !== undefined) {
    checked.flags = namesOf(context.flags, '"context.flags"', MAX_FLAGS, (names) => {
      const invalid = names.filter((name) => !FLAG_NAME_PATTERN.test(name));
      return invalid.length === 0 ? null : invalidFlagNamesMessage(invalid);
    });
  }
  return { document: body.document as JsonValue | undefined, location, context: checked };
}

/**
 * The viewer the preview's rules are evaluated for, as `/meta` makes one for a signed-in request
 * (slots/request-viewer.ts): the permissions its roles grant (and those given on top), roles as rules see them, the
 * tenant (which must exist: 400 otherwise, so a
 * typing error is not previewed as "a tenant no rule names"), and the flags given or those on for that tenant.
 * Someone who may not read every tenant's id (`readable`, shown-rule.ts) previews as a tenant they belong to only,
 * refused alike whether another exists or not: a preview as another would say which tenants exist, and which of
 * the rules' tenants it counts is that one.
 */
export async function previewViewer(
  context: PlacementPreviewContext,
  tenants: TenantStore,
  flags: FeatureFlagStore,
  readable: ReadableTenants = null,
): Promise<Viewer> {
  if (readable !== null && !readable(context.tenant)) {
    throw HttpError.invalidRequest(
      `"context.tenant" must be a tenant you belong to, got ${describe(context.tenant)}: a preview as another ` +
        'tenant needs the placements:edit permission in every tenant.',
    );
  }
  if ((await tenants.get(context.tenant)) === undefined) {
    const known = (await tenants.list()).map((tenant) => tenant.id);
    throw HttpError.invalidRequest(`"context.tenant" ${unknownNamesMessage('tenants', [context.tenant], known)}`);
  }
  const permissions = permissionsOf(context.roles, context.permissions);
  return {
    roles: rolesForRules(context.roles, permissions),
    permissions,
    tenant: context.tenant,
    flags: context.flags === undefined ? await flags.enabledFor(context.tenant) : new Set(context.flags),
  };
}

/**
 * A list of names: a list of at most `max` strings, else 400 saying so; then 400 with `problem`'s words (which names
 * are wrong, and why) when it has any, after `what` (`"context.flags" names the invalid flag name "bad flag!": …`).
 */
function namesOf(
  value: unknown,
  what: string,
  max: number,
  problem: (names: readonly string[]) => string | null,
): string[] {
  if (!Array.isArray(value) || value.length > max) {
    throw HttpError.invalidRequest(`${what} must be a list of at most ${max} names, got ${describe(value)}.`);
  }
  const other = value.findIndex((name) => typeof name !== 'string');
  if (other !== -1) {
    throw HttpError.invalidRequest(`${what} must be a list of names, got ${describe(value[other])} at [${other}].`);
  }
  const names = [...new Set(value as string[])];
  const wrong = problem(names);
  if (wrong !== null) throw HttpError.invalidRequest(`${what} ${wrong}`);
  return names;
}
