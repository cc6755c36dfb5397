/**
 * PostgreSQL RateStore: the takes of one event-loop turn go to PostgreSQL in one take_rates call
 * (drizzle/postgres/0004_take_rates_function.sql), sorted by key id (stable) so groups from
 * different instances lock bucket rows in the same order. One round trip and one commit per turn,
 * like the quota's charge_words.
 */
import { withDeadline } from '../deadline';
import type { RateState, RateStore, RateTake } from '../types';
import type { PgDb } from './client';

const TAKE_SQL = `SELECT take_index, granted_now, tat_after
  FROM take_rates($1::integer[], $2::text[], $3::integer[], $4::float8[], $5::integer[], $6::boolean[], $7::float8[])`;

/** Most takes in one call. */
const MAX_GROUP = 256;

interface PendingTake {
  take: RateTake;
  resolve(state: RateState): void;
  reject(error: unknown): void;
}

async function takeGroup(db: PgDb, group: readonly PendingTake[]): Promise<RateState[]> {
  const order = group.map((_, i) => i).sort((a, b) => group[a].take.keyId - group[b].take.keyId);
  const column = <T>(pick: (take: RateTake) => T) => order.map((i) => pick(group[i].take));
  const rows = (await db.$client.unsafe(TAKE_SQL, [
    column((t) => t.keyId),
    column((t) => t.bucket),
    column((t) => t.limit),
    column((t) => t.windowMs),
    column((t) => t.cost),
    column((t) => t.force),
    column((t) => t.now),
  ])) as Array<Record<string, unknown>>;
  const states: RateState[] = new Array(group.length);
  for (const row of rows) states[order[Number(row.take_index) - 1]] = { granted: Number(row.granted_now), tatMs: Number(row.tat_after) };
  return states;
}

/** The RateStore of a PostgreSQL pool. */
export function postgresRateStore(db: PgDb, timeoutMs: number): RateStore {
  const queue: PendingTake[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    while (queue.length > 0) {
      const group = queue.splice(0, MAX_GROUP);
      withDeadline(takeGroup(db, group), timeoutMs).then(
        (states) => group.forEach((pending, i) => pending.resolve(states[i])),
        (error) => group.forEach((pending) => pending.reject(error)),
      );
    }
  };
  return {
    take: (take) =>
      new Promise((resolve, reject) => {
        queue.push({ take, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      }),
  };
}
