import type { OpenAPIHono } from '@hono/zod-openapi';
import { sql } from 'kysely';
import type { AppDeps, AppEnv } from '../context';
import { ApiError } from '../errors';
import { defineEndpoint } from './define';

type Role = 'owner' | 'admin' | 'member';

/** What each role may do in its organisation. */
export const PERMISSIONS: Record<Role, string[]> = {
  owner: ['org:read', 'org:manage', 'members:invite', 'members:remove', 'billing:manage'],
  admin: ['org:read', 'org:manage', 'members:invite', 'members:remove'],
  member: ['org:read'],
};

/** /organizations and /organizations/self. */
export const registerOrgRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  defineEndpoint(app, deps.product, 'organizations', async (c, { auth }) => {
    const rows = await c.var.db
      .selectFrom('organization_members as m')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .select(['o.id', 'o.name', 'm.role'])
      .where('m.user_id', '=', auth.user.id)
      .orderBy('o.name')
      .execute();
    return { results: rows };
  });

  defineEndpoint(app, deps.product, 'organizationSelf', async (c, { auth }) => {
    const row = await c.var.db
      .selectFrom('organization_members as m')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .select((eb) => [
        'o.id',
        'o.name',
        'm.role',
        eb
          .selectFrom('organization_members as all_members')
          .select(sql<number>`cast(count(*) as integer)`.as('n'))
          .whereRef('all_members.organization_id', '=', 'o.id')
          .as('members_count'),
      ])
      .where('m.user_id', '=', auth.user.id)
      .where('m.organization_id', '=', auth.user.organization_id)
      .executeTakeFirst();
    if (!row) throw new ApiError(404, 'not_found', 'you are not a member of any organisation');
    return {
      id: row.id,
      name: row.name,
      role: row.role,
      permissions: PERMISSIONS[row.role],
      members_count: Number(row.members_count ?? 0),
    };
  });
};
