import type { Generated } from 'kysely';

/** Table types of people (migration 0034): facilities, staff users, their roles, sessions and links. */

export interface FacilitiesTable {
  id: number;
  name: string | null;
  /** The name in lower case: unique among facilities that are not archived. */
  name_folded: string | null;
  address: string | null;
  contact_email: string | null;
  phone: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface StaffUsersTable {
  id: Generated<number>;
  email: string;
  email_folded: string;
  name: string;
  state: string;
  /** Argon2id (src/infrastructure/passwords/); null until the person sets a password. */
  password_hash: string | null;
  password_changed_at: string | null;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface StaffRolesTable {
  staff_user_id: number;
  /** Null: every facility. */
  facility_id: number | null;
  role: string;
}

export interface StaffSessionsTable {
  id: Generated<number>;
  /** SHA-256 of the cookie's secret. */
  secret_hash: string;
  staff_user_id: number;
  method: string;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface StaffLinksTable {
  /** SHA-256 of the link's secret. */
  secret_hash: string;
  purpose: string;
  staff_user_id: number | null;
  data: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
