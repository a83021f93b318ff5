import { sql, type RawBuilder } from 'kysely';

/**
 * The feed's "priority" view (issue 21: "a person's priority orders the feed's priority
 * view"). Documents carry no sender yet (no chat or e-mail integration writes one), so a
 * document is linked to a person by mention: its title or company names the person (their
 * name, case-insensitively, as a whole substring). A document ranks by the highest priority of
 * the user's people it mentions: HIGH, then MEDIUM, then LOW, then documents that mention no
 * one; newest first within each rank. Only the user's own people count.
 *
 * Cost: one correlated look-up over the user's people per feed row, so the view reads the
 * feed's rows in full (paged by offset, like the company and category sorts); the latest and
 * oldest views keep their index walks.
 */

/** Rank of a document with no mention. */
export const UNMENTIONED_RANK = 3;

/** LIKE pattern text for a name: %, _ and the escape character taken literally. */
const escaped = (column: RawBuilder<unknown>) =>
  sql`replace(replace(replace(lower(${column}), '!', '!!'), '%', '!%'), '_', '!_')`;

/** The rank of `documents as d` for `userId`'s people (0 HIGH ... 3 none). */
export function priorityRank(userId: string): RawBuilder<number> {
  const name = escaped(sql.ref('p.name'));
  const mentions = (column: string) =>
    sql`lower(coalesce(${sql.ref(column)}, '')) like '%' || ${name} || '%' escape '!'`;
  return sql<number>`coalesce((
    select min(case p.priority when 'HIGH' then 0 when 'MEDIUM' then 1 else 2 end)
    from people p
    where p.user_id = ${userId}
      and length(p.name) > 0
      and (${mentions('d.title')} or ${mentions('d.company_name')})
  ), ${sql.lit(UNMENTIONED_RANK)})`;
}
