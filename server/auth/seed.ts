import { hashPassword } from './password';
import { createAccount } from './accounts';
import type { Db } from '../db/schema';
import type { SeedContext } from '../domain';

export const DEMO_ACCOUNT = {
  email: 'demo@needl.ai',
  password: 'demo-password',
  name: 'Demo User',
};
export const DEMO_ANALYST = {
  email: 'analyst@needl.ai',
  password: 'analyst-password',
  name: 'Asha Analyst',
};
export const DEMO_ORGANIZATION = 'Demo Research';

/** The demo accounts: the demo user owning "Demo Research", and an analyst who is a member. */
export const seedAccounts = async (db: Db, { now }: SeedContext) => {
  const demo = await createAccount(
    db,
    {
      ...DEMO_ACCOUNT,
      passwordHash: await hashPassword(DEMO_ACCOUNT.password),
      organizationName: DEMO_ORGANIZATION,
    },
    now,
  );
  await createAccount(
    db,
    {
      ...DEMO_ANALYST,
      passwordHash: await hashPassword(DEMO_ANALYST.password),
      joinOrganization: { id: demo.organization_id, role: 'member' },
    },
    now,
  );
};
