import { HomebodyError } from '../../src-shared/contract/index.js';

/** One connection Homebody itself tried to open (a model download, say), allowed or not. */
export interface EgressAttempt {
  readonly id: number;
  /** ms since the epoch. */
  readonly at: number;
  /** Why Homebody wanted to connect, for the user: e.g. "model download: BotPsy 0.8B Q8". */
  readonly purpose: string;
  /** The URL without its query and fragment (they may carry tokens). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly allowed: boolean;
  /** Why it was blocked; null when allowed. */
  readonly reason: string | null;
  /** Bytes received, when known (updated while a download runs). */
  readonly bytes: number | null;
}

/** What an allowed attempt hands its caller, to record the bytes it received. */
export interface EgressTicket {
  readonly attempt: EgressAttempt;
  /** Sets the bytes received so far over this connection (or connections) for this attempt. */
  setBytes(bytes: number): void;
}

export interface EgressGuardOptions {
  /** Refuse every connection. Default false (a later version makes offline the default). */
  readonly offline?: boolean;
  /** How many attempts `list()` keeps, oldest dropped first. */
  readonly maxRecords?: number;
  readonly now?: () => number;
}

const DEFAULT_MAX_RECORDS = 1000;

/** The schemes Homebody connects over, with their default ports: the web, and mail (sending and reading). */
const DEFAULT_PORTS: Readonly<Record<string, number>> = {
  'http:': 80,
  'https:': 443,
  'smtp:': 25,
  'smtps:': 465,
  'imap:': 143,
  'imaps:': 993,
};

/**
 * The one gate every app-initiated network connection passes before it is opened: only http(s), and smtp(s) and
 * imap(s) for the mail tools, nothing at all while offline. Each attempt is recorded in memory (a ledger the UI will show later).
 */
export class EgressGuard {
  private offlineFlag: boolean;
  private readonly records: EgressAttempt[] = [];
  private nextId = 1;
  private readonly maxRecords: number;
  private readonly now: () => number;

  constructor(options: EgressGuardOptions = {}) {
    this.offlineFlag = options.offline ?? false;
    this.maxRecords = options.maxRecords ?? DEFAULT_MAX_RECORDS;
    this.now = options.now ?? Date.now;
  }

  get offline(): boolean {
    return this.offlineFlag;
  }

  setOffline(offline: boolean): void {
    this.offlineFlag = offline;
  }

  /**
   * Asks to connect to `rawUrl` for `purpose`. Answers a ticket when allowed; throws HomebodyError NETWORK_BLOCKED
   * (and records the refusal) when offline or when the scheme is not one of DEFAULT_PORTS.
   */
  check(rawUrl: string, purpose: string): EgressTicket {
    let url: URL | undefined;
    try {
      url = new URL(rawUrl);
    } catch {
      url = undefined;
    }
    const protocol = url?.protocol;
    const safeUrl = url ? `${url.protocol}//${url.host}${url.pathname}` : rawUrl.slice(0, 200);
    const host = url?.hostname ?? '';
    const known = protocol !== undefined && Object.hasOwn(DEFAULT_PORTS, protocol);
    const port = url ? Number(url.port || (known && protocol ? DEFAULT_PORTS[protocol] : 0)) : 0;
    let reason: string | null = null;
    if (!url) reason = `"${safeUrl}" is not a valid URL.`;
    else if (!known) {
      reason = `Homebody connects only over http(s), smtp(s) and imap(s), not ${url.protocol.replace(/:$/, '')}.`;
    } else if (this.offlineFlag) {
      reason = `Homebody is offline: it opens no connections (here to ${host} for ${purpose}).`;
    }
    const attempt: { -readonly [K in keyof EgressAttempt]: EgressAttempt[K] } = {
      id: this.nextId++,
      at: this.now(),
      purpose,
      url: safeUrl,
      host,
      port,
      allowed: reason === null,
      reason,
      bytes: reason === null ? 0 : null,
    };
    this.records.push(attempt);
    if (this.records.length > this.maxRecords) this.records.splice(0, this.records.length - this.maxRecords);
    if (reason !== null) throw new HomebodyError('NETWORK_BLOCKED', reason);
    return {
      attempt,
      setBytes(bytes: number) {
        attempt.bytes = bytes;
      },
    };
  }

  /** Every recorded attempt, oldest first (copies). */
  list(): EgressAttempt[] {
    return this.records.map((r) => ({ ...r }));
  }
}
