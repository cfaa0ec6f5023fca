import { useCallback } from 'react';
import type { RecordPayload, ResourcePayload } from '../../shared';
import { useSession } from '../core';
import { useApi, type ApiState } from './use-api';

/**
 * A resource's definition (`GET /api/resources/:name`) is the server's code, the same for everyone: read once per
 * session and tenant (Session.scope is in the key, as in every cache of the host: nothing read under another identity
 * is shown), not at every visit of a list or record. Forgotten on sign-out ({@link forgetRecordPagesRead}).
 */
const definitions = new Map<string, ResourcePayload>();

/**
 * The record a record's page has just read, handed to the next page of the same record (view, then Edit), which
 * would otherwise ask for it again. Taken once, and only while fresh: a form opened on a record read minutes ago
 * would start from values others may have changed since (its save would refuse them, ResourceForm, but the form
 * should not start there).
 */
let lastRecordRead: { key: string; payload: RecordPayload; at: number } | null = null;

/** How long a record just read is handed on: the time to press Edit, not to leave a tab open. */
export const RECORD_HANDOFF_MS = 30_000;

/** The definition of `resource`, read once per session scope. */
export function useResourceDefinition(resource: string): ApiState<ResourcePayload> & { reload(): void } {
  const { scope } = useSession();
  const key = `${scope}\n${resource}`;
  const cached = definitions.get(key);
  const api = useApi<ResourcePayload>(cached ? null : `/api/resources/${encodeURIComponent(resource)}`);
  if (!cached && api.status === 'ready') definitions.set(key, api.data);
  const { reload: reloadApi } = api;
  const reload = useCallback(() => {
    definitions.delete(key);
    reloadApi();
  }, [key, reloadApi]);
  if (cached) return { status: 'ready', data: cached, error: null, reload };
  return { ...api, reload };
}

/** Keeps the record a page has just read, for the next page of the same record. */
export function keepRecordRead(scope: string, resource: string, payload: RecordPayload): void {
  lastRecordRead = { key: `${scope}\n${resource}\n${payload.record.id}`, payload, at: Date.now() };
}

/** The record of `resource` and `id` read moments ago by the previous page; null for anything else. */
export function peekRecordRead(scope: string, resource: string, id: string): RecordPayload | null {
  const kept = lastRecordRead;
  if (!kept || kept.key !== `${scope}\n${resource}\n${id}` || Date.now() - kept.at > RECORD_HANDOFF_MS) return null;
  return kept.payload;
}

/** The record handed on is taken: a later page of it reads it again. */
export function forgetRecordRead(): void {
  lastRecordRead = null;
}

/** On sign-out: nothing read by the user stays in the tab. */
export function forgetRecordPagesRead(): void {
  definitions.clear();
  lastRecordRead = null;
}
