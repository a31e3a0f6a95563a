// message_counts (migration 0010) is derived data: these are the organizations whose stored counts
// differ from a recount of their messages. Tests that write messages expect none.
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../../src/server/db/database';

export interface CountMismatch extends Record<string, unknown> {
  readonly participant_id: string;
  readonly stored: string | null;
  readonly counted: string | null;
}

export async function messageCountMismatches(database: Pick<DatabaseHandle, 'db'>): Promise<CountMismatch[]> {
  const result = await database.db.execute<CountMismatch>(sql`
    with counted as (
      select participant_id, count(*)::int as total, (count(*) filter (where not archived))::int as unarchived,
        (count(*) filter (where not read and not archived))::int as unread
      from messages group by participant_id
    )
    select coalesce(c.participant_id, s.participant_id) as participant_id,
      concat_ws('/', s.total, s.unarchived, s.unread) as stored, concat_ws('/', c.total, c.unarchived, c.unread) as counted
    from counted c full join message_counts s on s.participant_id = c.participant_id
    where (coalesce(c.total, 0), coalesce(c.unarchived, 0), coalesce(c.unread, 0))
      is distinct from (coalesce(s.total, 0), coalesce(s.unarchived, 0), coalesce(s.unread, 0))`);
  return result.rows;
}
