import { AsyncLocalStorage } from 'node:async_hooks';
import { watchConnections, type ConnectionVerdict, type SeenConnection } from '../../privacy/connectionWatcher.js';
import { DEFAULT_PORTS } from '../../privacy/egressGuard.js';
import { normalizeHost } from '../../privacy/networkRules.js';

/** What the worker tells the main process of a connection it saw and closed (a `connection` service request). */
export interface ConnectionReport {
  readonly kind: 'connection';
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly route: string;
  readonly allowed: boolean;
  readonly reason: string;
}

/**
 * The tool worker's side of the egress ledger: each host and port the egress guard allowed for a running call is a
 * grant, for as long as that call runs; any other client connection the worker opens is closed before it sends a byte
 * and reported for the ledger, for the call whose code opened it (or, if that cannot be told, a running one).
 */
export class WorkerConnections {
  private readonly grants = new Map<string, Set<string>>();
  private readonly calls = new AsyncLocalStorage<string>();
  private stop: (() => void) | undefined;

  constructor(private readonly report: (callId: string, report: ConnectionReport) => void) {}

  /** Starts watching this process's connections. */
  start(): void {
    this.stop ??= watchConnections({
      judge: (seen) => this.judge(seen),
      record: (seen, verdict) => {
        const callId = this.calls.getStore() ?? this.grants.keys().next().value;
        if (callId === undefined) return;
        this.report(callId, { kind: 'connection', ...seen, ...verdict });
      },
    });
  }

  dispose(): void {
    this.stop?.();
    this.stop = undefined;
  }

  /** Runs one call's code, so the connections it opens are told apart from other calls'. */
  run<T>(callId: string, work: () => Promise<T>): Promise<T> {
    this.grants.set(callId, new Set());
    return this.calls.run(callId, work).finally(() => this.grants.delete(callId));
  }

  /** The egress guard allowed `url` for this call. */
  grant(callId: string, url: string): void {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return;
    }
    const port = Number(parsed.port || DEFAULT_PORTS[parsed.protocol] || 0);
    this.grants.get(callId)?.add(`${normalizeHost(parsed.hostname)}:${port}`);
  }

  private judge(seen: SeenConnection): ConnectionVerdict | null {
    const key = `${seen.host}:${seen.port}`;
    for (const granted of this.grants.values()) if (granted.has(key)) return null;
    return {
      allowed: false,
      reason: `The tool opened a connection to ${seen.host}:${seen.port} that the egress guard had not allowed for it; it was closed.`,
    };
  }
}
