import { EMPTY_DEFINITION } from '../../contract/boards';
import { DEMO_ACCOUNT, findUserByEmail } from '../auth';
import type { Db } from '../db/schema';
import type { SeedContext } from '../domain';
import { createBoard } from './queries';

/** The demo's custom feed: a boolean keyword query over everything the demo user follows. */
export const DEMO_BOARD = {
  board_name: 'Banks and rates',
  description: 'Lenders, central banks and bond markets, without the buyback noise',
  keywords: ['(bank OR banking OR lender) AND NOT buyback', '"monetary policy" | "repo rate"'],
  exclude: ['"share buyback"'],
};

/** Runs after the documents seed, so the feed is built over the demo corpus. */
export const seedBoards = async (db: Db, { now }: SeedContext) => {
  const demo = await findUserByEmail(db, DEMO_ACCOUNT.email);
  if (!demo) return;
  await createBoard(
    db,
    demo.id,
    {
      board_name: DEMO_BOARD.board_name,
      description: DEMO_BOARD.description,
      kind: 'custom',
      definition: {
        ...EMPTY_DEFINITION,
        keywords: {
          include: DEMO_BOARD.keywords.map((keyword) => ({ keyword, valid: true })),
          exclude: DEMO_BOARD.exclude.map((keyword) => ({ keyword, valid: true })),
        },
      },
    },
    now,
  );
};
