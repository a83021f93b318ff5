import { sql } from 'kysely';
import type { OrganizationList, OrganizationSelf } from '../../contract/user';
import type { Db } from '../db/schema';
import { ApiError } from '../errors';

type Role = 'owner' | 'admin' | 'member';

/** What each role may do in its organisation. */
export const PERMISSIONS: Record<Role, string[]> = {
  owner: ['org:read', 'org:manage', 'members:invite', 'members:remove', 'billing:manage'],
  admin: ['org:read', 'org:manage', 'members:invite', 'members:remove'],
  member: ['org:read'],
};

/** The organisations the user belongs to, by name. */
export const organizationsOf = async (db: Db, userId: string): Promise<OrganizationList> => ({
  results: await db
    .selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select(['o.id', 'o.name', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('o.name')
    .execute(),
});

/** The user's current organisation with their role, permissions and the member count. */
export const organizationSelf = async (
  db: Db,
  user: { id: string; organization_id: string },
): Promise<OrganizationSelf> => {
  const row = await db
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
    .where('m.user_id', '=', user.id)
    .where('m.organization_id', '=', user.organization_id)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, 'not_found', 'you are not a member of any organisation');
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    permissions: PERMISSIONS[row.role],
    members_count: Number(row.members_count ?? 0),
  };
};
