import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Migration } from 'kysely';
import type { domains } from '../contract/domains';
import type { AppDeps, AppEnv, ChangeRetention } from './context';
import type { Db } from './db/schema';

/** What a domain's seed is given: the clock and the product name. */
export type SeedContext = { now: number; product: string };

/** What a domain's maintenance job is given (see maintenance.ts). */
export type MaintenanceContext = { now: number; changeRetention: ChangeRetention };

/**
 * One domain on the server: everything it adds lives in `server/<name>/` and is registered by
 * one line in server/domains.ts. The app, the migrator, the seed and the maintenance all
 * iterate that list, so a new domain edits no shared file.
 */
export type ServerDomain = {
  /** The contract domain it serves (contract/domains.ts); its routes serve those endpoints. */
  name: keyof typeof domains;
  /** Its routes: `routesFor(name, app, deps.product)` from http/define.ts. */
  register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void;
  /**
   * Middleware mounted ahead of the shared idempotency middleware, for writes that must stick
   * although the request fails and its transaction rolls back (the sign-in throttles).
   */
  guard?(app: OpenAPIHono<AppEnv>, deps: AppDeps): void;
  /**
   * Its schema changes, by globally numbered name (`0004-change-floor`): the migrator merges
   * every domain's and runs them in name order, so a new one takes the next free number. A
   * name, once shipped, never changes (databases remember what they applied by name).
   */
  migrations?: Record<string, Migration>;
  /** Runs on every start after migrating (configuration such as flag defaults). */
  prepare?(db: Db, ctx: { product: string }): Promise<void>;
  /**
   * Adds its part of the demo workspace; runs once per database, in list order, inside a
   * transaction that first claims the domain's seed marker (see seed.ts).
   */
  seed?(db: Db, ctx: SeedContext): Promise<void>;
  /** Its part of the hourly maintenance: deleting what nobody can use any more. */
  maintain?(db: Db, ctx: MaintenanceContext): Promise<void>;
};

/** Declares a server domain (identity at run time; keeps the literal name for typing). */
export const defineServerDomain = <const D extends ServerDomain>(domain: D): D => domain;
