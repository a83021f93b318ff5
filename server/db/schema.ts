import type { Generated, Kysely, Transaction } from 'kysely';

/**
 * The core tables, as Kysely sees them; a domain declares its own tables in its folder by
 * augmenting this interface (see server/notifications/tables.ts). Portable across SQLite and
 * PostgreSQL: ids are text (UUIDs), timestamps are ISO-8601 text (they sort as strings),
 * booleans are integer 0/1, JSON is text.
 */
export interface Database {
  meta: { key: string; value: string };
  organizations: { id: string; name: string; created_at: string };
  users: {
    id: string;
    /** Always lower-cased; unique. */
    email: string;
    name: string;
    /** `scrypt$N$r$p$salt$hash` (see auth/password.ts). */
    password_hash: string;
    /** The organisation /organizations/self answers with. */
    organization_id: string;
    /** Last change sequence number handed out to this user (see sync/changes.ts). */
    change_seq: Generated<number>;
    /**
     * Every change numbered up to here has been compacted away (sync/compaction.ts): a cursor
     * below it cannot be continued and gets a reset. Migration 0004.
     */
    change_floor: Generated<number>;
    created_at: string;
    updated_at: string;
  };
  organization_members: {
    organization_id: string;
    user_id: string;
    role: 'owner' | 'admin' | 'member';
    created_at: string;
  };
  /** Only SHA-256 hashes of tokens are stored. `family_id` ties a sign-in's tokens together. */
  id_tokens: {
    token_hash: string;
    user_id: string;
    family_id: string;
    expires_at: string;
    revoked_at: string | null;
    created_at: string;
  };
  refresh_tokens: {
    token_hash: string;
    user_id: string;
    family_id: string;
    expires_at: string;
    revoked_at: string | null;
    created_at: string;
  };
  password_resets: {
    token_hash: string;
    user_id: string;
    expires_at: string;
    used_at: string | null;
    created_at: string;
  };
  /**
   * One sign-in attempt (per device cookie, per e-mail from strangers, per client address),
   * sent reset mail, sign-up or password reset, counted in a sliding window (auth/throttle.ts).
   * `subject` is a SHA-256 of the e-mail or address (a device cookie: the e-mail's and its
   * nonce's joined by ':'): the table fills with what strangers type, and counting needs no
   * plain text.
   */
  auth_attempts: {
    id: string;
    kind:
      | 'signin_device'
      | 'signin_email'
      | 'signin_ip'
      | 'reset_mail'
      | 'signup_ip'
      | 'reset_ip'
      | 'password_user';
    subject: string;
    /**
     * 1 while a sign-in's password check runs; it then becomes a failure (0) or is deleted.
     * Migration 0005; other kinds are always 0.
     */
    pending: Generated<number>;
    created_at: string;
  };
  preferences: { user_id: string; data: string; updated_at: string };
  feature_flag_defaults: { name: string; value: string };
  feature_flag_overrides: { user_id: string; name: string; value: string };
  onboarding_flags: { user_id: string; show_attributes_form: number; show_search_modal: number };
  idempotency_records: {
    /** User id, or "anon" for signed-out calls. */
    scope: string;
    method: string;
    path: string;
    /** SHA-256 of the idempotency key; the key itself is never stored. */
    key_hash: string;
    /** SHA-256 of the request body, so a reused key with another body is refused. */
    request_hash: string;
    /** The answer's HTTP status; 0 while the claiming request runs (see idempotency.ts). */
    status: number;
    /**
     * The response body, AES-256-GCM encrypted with a key derived from the idempotency key;
     * while pending, the claim's random id (so only its holder stores the answer).
     */
    body: string;
    /** When claimed, then when answered (the replay window counts from the answer). */
    created_at: string;
  };
  changes: {
    user_id: string;
    seq: number;
    entity: string;
    entity_id: string;
    op: 'upsert' | 'delete';
    data: string;
    created_at: string;
  };
  debug_logs: {
    id: string;
    user_id: string;
    data: string;
    /** 1 when sent with an expired or revoked id token (a worker whose refresh failed). */
    expired_token: Generated<number>;
    created_at: string;
  };
  analytics_reports: {
    id: string;
    user_id: string;
    event_name: string;
    payload: string;
    created_at: string;
  };
}

/** The database handle or an open transaction: every query takes one of these. */
export type Db = Kysely<Database> | Transaction<Database>;

export type DialectName = 'sqlite' | 'postgres';
