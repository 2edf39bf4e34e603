import type { EgressEvent, EgressFeature, EgressVia, LedgerPage } from '../../../src-shared/contract/index.js';
import type { Db } from '../db.js';

interface EgressRow {
  id: number;
  at: number;
  source: string;
  feature: EgressFeature | null;
  url: string;
  host: string;
  port: number;
  allowed: 0 | 1;
  reason: string | null;
  bytes: number | null;
  sent: number | null;
  carried: string | null;
  via: EgressVia;
}

export type NewEgressRow = Omit<EgressEvent, 'id'>;

/** How many ledger events are kept; older ones go as new ones come. */
export const MAX_EGRESS_EVENTS = 10_000;

export interface LedgerQuery {
  readonly limit: number;
  readonly beforeId?: number;
  readonly allowedOnly?: boolean;
}

/** The egress ledger: appended by the guard and the watchers, bytes updated while a download runs. */
export function createEgressRepo(db: Db, maxEvents = MAX_EGRESS_EVENTS) {
  const insert = db.prepare(
    `INSERT INTO egress_events (at, source, feature, url, host, port, allowed, reason, bytes, via, sent, carried)
     VALUES (@at, @source, @feature, @url, @host, @port, @allowed, @reason, @bytes, @via, @sent, @carried)`,
  );
  // Ids only grow (pruning removes the oldest), so the newest `maxEvents` rows are those above this bound.
  const prune = db.prepare<[number]>('DELETE FROM egress_events WHERE id <= ?');
  const setBytes = db.prepare<[number, number | null, number]>(
    'UPDATE egress_events SET bytes = ?, sent = coalesce(?, sent) WHERE id = ?',
  );
  const get = db.prepare<[number], EgressRow>('SELECT * FROM egress_events WHERE id = ?');
  const page = db.prepare<[number, number, number], EgressRow>(
    'SELECT * FROM egress_events WHERE id < ? AND allowed >= ? ORDER BY id DESC LIMIT ?',
  );
  const counts = db.prepare<[], { total: number; allowed: number | null }>(
    'SELECT count(*) AS total, sum(allowed) AS allowed FROM egress_events',
  );
  const clear = db.prepare('DELETE FROM egress_events');
  // Events of features that count neither leave `sent` and `carried` out, as before they existed.
  const toEvent = ({ sent, carried, ...row }: EgressRow): EgressEvent => ({
    ...row,
    allowed: row.allowed === 1,
    ...(sent === null ? {} : { sent }),
    ...(carried === null ? {} : { carried }),
  });
  return {
    append(event: NewEgressRow): EgressEvent {
      const row = { sent: null, carried: null, ...event, allowed: event.allowed ? 1 : 0 };
      const id = Number(insert.run(row).lastInsertRowid);
      if (id > maxEvents) prune.run(id - maxEvents);
      return { ...event, id };
    },
    /** Sets the bytes of an event still kept; answers the event as it is now, or undefined when it is gone. */
    setBytes(id: number, bytes: number, sent?: number): EgressEvent | undefined {
      setBytes.run(bytes, sent ?? null, id);
      const row = get.get(id);
      return row ? toEvent(row) : undefined;
    },
    /** Newest first; `total` and `allowedCount` count every event matching the filter, not only this page. */
    page(query: LedgerQuery): LedgerPage {
      const events = page
        .all(query.beforeId ?? Number.MAX_SAFE_INTEGER, query.allowedOnly ? 1 : 0, query.limit)
        .map(toEvent);
      const { total, allowed } = counts.get() ?? { total: 0, allowed: 0 };
      const allowedCount = allowed ?? 0;
      return { events, total: query.allowedOnly ? allowedCount : total, allowedCount };
    },
    /** Forgets every event (deleting all data). */
    clear(): void {
      clear.run();
    },
  };
}
export type EgressRepo = ReturnType<typeof createEgressRepo>;
