/**
 * Group commit for single-mode charges. Each charge is one conditional statement (service.ts);
 * run alone it is also one WAL commit, ~15 us at best and ~35 us under load, where it was the
 * largest SQLite cost of a detection. Charges requested in the same event-loop turn (a loaded
 * server reads many requests per turn) run together in one IMMEDIATE transaction at the end of
 * the turn: each is still decided by its own conditional statement, in arrival order, under the
 * write lock, so nothing can overspend; the commit happens before any of them is analysed or
 * answered, so nothing counted is lost. Alone, a charge waits one turn (microseconds).
 */
import type { Db } from '../../db/client';
import type { ApiKeyRow } from '../../db/schema';
import { chargeWords, type ChargeResult } from './service';

interface PendingCharge {
  key: ApiKeyRow;
  words: number;
  now: number;
  resolve(result: ChargeResult): void;
  reject(error: unknown): void;
}

const queues = new Map<Db, PendingCharge[]>();
type ChargeAll = ((charges: PendingCharge[]) => ChargeResult[]) & { immediate(charges: PendingCharge[]): ChargeResult[] };
/** The transaction function per database, made once: building it costs ~2 us, a turn's hot path. */
const chargeAllByDb = new WeakMap<Db, ChargeAll>();

function chargeAllFor(db: Db): ChargeAll {
  let chargeAll = chargeAllByDb.get(db);
  if (!chargeAll) {
    chargeAll = db.$client.transaction((charges: PendingCharge[]) => charges.map((c) => chargeWords(db, c.key, c.words, c.now))) as ChargeAll;
    chargeAllByDb.set(db, chargeAll);
  }
  return chargeAll;
}

function commitQueued(db: Db): void {
  const queue = queues.get(db) ?? [];
  queues.delete(db);
  let results: ChargeResult[];
  try {
    results = chargeAllFor(db).immediate(queue);
  } catch (error) {
    // Rolled back: none of these charges happened.
    for (const charge of queue) charge.reject(error);
    return;
  }
  queue.forEach((charge, i) => charge.resolve(results[i]));
}

/** chargeWords, committed together with the other charges of this event-loop turn. */
export function chargeWordsGrouped(db: Db, key: ApiKeyRow, words: number, now: number = Date.now()): Promise<ChargeResult> {
  return new Promise((resolve, reject) => {
    let queue = queues.get(db);
    if (!queue) {
      queue = [];
      queues.set(db, queue);
      setImmediate(() => commitQueued(db));
    }
    queue.push({ key, words, now, resolve, reject });
  });
}
