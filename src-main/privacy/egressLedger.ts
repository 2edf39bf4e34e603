import type { EgressEvent } from '../../src-shared/contract/index.js';

/** A ledger event before the ledger numbered it. */
export type NewEgressEvent = Omit<EgressEvent, 'id'>;

/**
 * Where the guard and the watchers write the egress ledger. privacy/ cannot reach the store, so the Host hands it
 * one (the store's egress repository, which also tells the renderer); unit tests use MemoryEgressLedger.
 */
export interface EgressSink {
  /** Records an event and answers it with its id. */
  record(event: NewEgressEvent): EgressEvent;
  /** Sets the bytes received (and sent, where counted) of an event already recorded (a download in progress). */
  setBytes(id: number, bytes: number, sent?: number): void;
}

/**
 * A connection seen outside the egress guard: by the watcher on Node's sockets, or by the renderer's session
 * (Electron's webRequest). The Host records it as it is; `allowed` says whether it was let through.
 */
export type ObservedConnection = {
  source: string;
  url: string;
  via: 'watcher' | 'renderer';
  allowed: boolean;
  reason: string | null;
};

/** The URL as the ledger keeps it: scheme, host, port and path, never the query or fragment (they may carry tokens). */
export function ledgerUrl(raw: string): { url: string; host: string; port: number | null } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { url: raw.replace(/[?#].*$/s, '').slice(0, 200), host: '', port: null };
  }
  return {
    url: `${url.protocol}//${url.host}${url.pathname}`,
    host: url.hostname,
    port: url.port ? Number(url.port) : null,
  };
}

/** An in-memory ledger, newest kept up to `max` (tests, and a Host-less guard). */
export class MemoryEgressLedger implements EgressSink {
  private readonly events: EgressEvent[] = [];
  private nextId = 1;

  constructor(private readonly max = 10_000) {}

  record(event: NewEgressEvent): EgressEvent {
    const recorded = { ...event, id: this.nextId++ };
    this.events.push(recorded);
    if (this.events.length > this.max) this.events.splice(0, this.events.length - this.max);
    return { ...recorded };
  }

  setBytes(id: number, bytes: number, sent?: number): void {
    const event = this.events.find((e) => e.id === id);
    if (!event) return;
    event.bytes = bytes;
    if (sent !== undefined) event.sent = sent;
  }

  /** Oldest first (copies). */
  list(): EgressEvent[] {
    return this.events.map((e) => ({ ...e }));
  }
}
