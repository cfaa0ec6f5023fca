import type { Generated } from 'kysely';

/**
 * The tables the stores query, as both engines hold them (see migrations.ts). Times are milliseconds since the
 * epoch (INTEGER in SQLite, BIGINT in PostgreSQL, read back as numbers); record data is JSON text in both.
 */
export interface AppSchema {
  users: UsersTable;
  tenants: TenantsTable;
  memberships: MembershipsTable;
  records: RecordsTable;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  display_name: string;
  password_hash: string;
  created_at: number;
  updated_at: number;
  /** NULL: enabled. A time: disabled then. */
  disabled_at: number | null;
}

export interface TenantsTable {
  id: string;
  name: string;
}

export interface MembershipsTable {
  user_id: number;
  tenant_id: string;
}

export interface RecordsTable {
  id: Generated<number>;
  tenant_id: string;
  resource: string;
  data: string;
  created_at: number;
  updated_at: number;
}
