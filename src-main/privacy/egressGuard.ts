import {
  HomebodyError,
  OFFLINE_REFUSAL,
  type EgressEvent,
  type EgressFeature,
  type NetworkSettings,
} from '../../src-shared/contract/index.js';
import { MemoryEgressLedger, type EgressSink } from './egressLedger.js';
import {
  DEFAULT_NETWORK_SETTINGS,
  FEATURE_PURPOSES,
  FEATURE_SHORT_NAMES,
  anyRuleNames,
  isPrivateAddress,
  matchingRule,
  normalizeHost,
} from './networkRules.js';

/** What an allowed check hands its caller. */
export interface EgressTicket {
  /** The ledger event recorded for it. */
  readonly event: EgressEvent;
  /**
   * A rule names this exact host. The web tools may then reach it even where it resolves to a private address;
   * otherwise they refuse such an address (a public name that resolves to 127.0.0.1, say).
   */
  readonly hostNamed: boolean;
  /**
   * Sets the bytes received so far for this connection (or connections); written to the ledger at most ~2/s, the
   * last value always (a little later), and at once when `final`. `sent`: the bytes sent, where the feature counts them.
   */
  setBytes(bytes: number, final?: boolean, sent?: number): void;
}

export interface EgressGuardOptions {
  /**
   * Held offline whatever the settings say, and no rule applies: nothing at all leaves the machine
   * (HOMEBODY_OFFLINE=1, createHost's `offline`). The stored settings are kept and apply again on a start without it.
   */
  readonly forceOffline?: boolean;
  /** Default: offline, no rules. */
  readonly settings?: NetworkSettings;
  /** Where attempts are recorded; default an in-memory ledger. */
  readonly sink?: EgressSink;
  readonly now?: () => number;
  /** How long an allowed check covers new connections to its host and port (see `covers`). Default 30 s. */
  readonly ticketWindowMs?: number;
  /** The least time between two ledger writes of one ticket's bytes. Default 500 ms. */
  readonly bytesIntervalMs?: number;
}

/** The schemes Homebody connects over, with their default ports: the web, and mail (sending and reading). */
export const DEFAULT_PORTS: Readonly<Record<string, number>> = {
  'http:': 80,
  'https:': 443,
  'smtp:': 25,
  'smtps:': 465,
  'imap:': 143,
  'imaps:': 993,
};

/** What the guard answers for a connection no feature asked for (the watchers'). */
export interface UnaskedVerdict {
  readonly allowed: boolean;
  readonly reason: string;
}

/**
 * The one gate every app-initiated network connection passes before it is opened. Each check names its feature
 * (model-download, web, mail, mcp) and its source ("tool web_fetch"), and is recorded in the ledger, allowed or not.
 *
 * - Offline mode (the default): allowed only when a rule names the feature and the host, or the feature and `*`.
 * - Online: allowed, except the web tools to this machine or the local network (loopback, private, link-local,
 *   unique-local, CGNAT, unspecified, `localhost`): those need a rule naming that exact host, online or not.
 * - Forced offline (`forceOffline`): nothing passes, rules included.
 * Only http(s), and smtp(s) and imap(s) for the mail tools, are ever allowed.
 */
export class EgressGuard {
  private current: NetworkSettings;
  private readonly forced: boolean;
  private readonly sink: EgressSink;
  private readonly now: () => number;
  private readonly ticketWindowMs: number;
  private readonly bytesIntervalMs: number;
  /** Allowed checks still covering new connections: `host:port` → last time the ticket was used. */
  private readonly live = new Map<string, number>();
  /** Model downloads under way (their tickets used within the window): source → last time. */
  private readonly downloads = new Map<string, number>();
  /** Tickets holding bytes not yet written (their write waits for the interval). */
  private readonly unwritten = new Set<() => void>();
  private disposed = false;

  constructor(options: EgressGuardOptions = {}) {
    this.forced = options.forceOffline ?? false;
    this.current = structuredClone(options.settings ?? DEFAULT_NETWORK_SETTINGS);
    this.sink = options.sink ?? new MemoryEgressLedger();
    this.now = options.now ?? Date.now;
    this.ticketWindowMs = options.ticketWindowMs ?? 30_000;
    this.bytesIntervalMs = options.bytesIntervalMs ?? 500;
  }

  /** Whether offline mode is in force (the setting, or the forced switch). */
  get offline(): boolean {
    return this.forced || this.current.offline;
  }

  /** Started with the network off (HOMEBODY_OFFLINE=1): settings are kept but nothing passes. */
  get forcedOffline(): boolean {
    return this.forced;
  }

  /** The user's settings as stored (offline may read false while forced offline holds). */
  settings(): NetworkSettings {
    return structuredClone(this.current);
  }

  setSettings(settings: NetworkSettings): void {
    this.current = structuredClone(settings);
  }

  /**
   * Asks to connect to `rawUrl` for `feature` on behalf of `source`. Answers a ticket when allowed; throws
   * HomebodyError NETWORK_BLOCKED with a sentence saying what to do when not. Either way the ledger has it.
   */
  check(rawUrl: string, feature: EgressFeature, source: string, carried?: string): EgressTicket {
    const ticket = this.decideAndRecord(rawUrl, feature, source, true, carried);
    if (!ticket) throw new Error('unreachable: an allowed check always answers a ticket');
    return ticket;
  }

  /**
   * Refuses now (recording the refusal) what `check` would refuse, without recording an allowed attempt: for a
   * caller that tells the user at once and connects later (a queued download), where `check` runs again.
   */
  preflight(rawUrl: string, feature: EgressFeature, source: string): void {
    this.decideAndRecord(rawUrl, feature, source, false);
  }

  private decideAndRecord(
    rawUrl: string,
    feature: EgressFeature,
    source: string,
    connecting: boolean,
    carried?: string,
  ): EgressTicket | undefined {
    let url: URL | undefined;
    try {
      url = new URL(rawUrl);
    } catch {
      url = undefined;
    }
    const protocol = url?.protocol;
    const safeUrl = url ? `${url.protocol}//${url.host}${url.pathname}` : rawUrl.replace(/[?#].*$/s, '').slice(0, 200);
    const host = url ? normalizeHost(url.hostname) : '';
    const known = protocol !== undefined && Object.hasOwn(DEFAULT_PORTS, protocol);
    const port = url ? Number(url.port || (known && protocol ? DEFAULT_PORTS[protocol] : 0)) : 0;
    const decision = url ? this.decide(url, known, feature, host) : { reason: `"${safeUrl}" is not a valid URL.` };
    const allowed = 'allowedBy' in decision;
    if (allowed && !connecting) return undefined;
    const event = this.sink.record({
      at: this.now(),
      source,
      feature,
      url: safeUrl,
      host,
      port,
      allowed,
      reason: allowed ? decision.allowedBy : decision.reason,
      bytes: allowed ? 0 : null,
      via: 'guard',
      ...(carried === undefined ? {} : { carried, sent: allowed ? 0 : null }),
    });
    if (!allowed) throw new HomebodyError('NETWORK_BLOCKED', decision.reason);
    this.touch(host, port, feature === 'model-download' ? source : undefined);
    return this.ticket(event, host, port, decision.hostNamed, feature === 'model-download' ? source : undefined);
  }

  /**
   * True when an allowed check for this host and port was made (or its bytes reported) within the ticket window:
   * the watcher then knows a connection it sees was asked for, and does not record it twice.
   */
  covers(host: string, port: number): boolean {
    const key = `${normalizeHost(host)}:${port}`;
    const at = this.live.get(key);
    if (at === undefined) return false;
    if (this.now() - at > this.ticketWindowMs) {
      this.live.delete(key);
      return false;
    }
    return true;
  }

  /**
   * What offline mode makes of a connection no feature asked for. Loopback never leaves the machine and passes;
   * offline, anything else passes only if some rule (of any feature) names its host, a feature's `*` rule exists, or
   * a model download is under way (its redirects to a mirror are not asked through the guard).
   */
  judgeUnasked(host: string): UnaskedVerdict {
    const h = normalizeHost(host);
    const loopback = isLoopback(h);
    if (this.forced && !loopback) {
      return { allowed: false, reason: `Homebody was started offline: nothing leaves the machine (here ${h}).` };
    }
    if (!this.current.offline || loopback) {
      return { allowed: true, reason: 'seen, not asked through the guard' };
    }
    if (anyRuleNames(this.current.rules, h) || this.current.rules.some((r) => r.host === '*')) {
      return { allowed: true, reason: 'seen, not asked through the guard (a rule names the host)' };
    }
    // A download's server may send it on to a mirror (Hugging Face to its CDN): that hop is the download's own.
    const download = this.liveDownload();
    if (download) {
      return { allowed: true, reason: `seen while "${download}" was downloading (a redirect or mirror of it)` };
    }
    return {
      allowed: false,
      reason: `${OFFLINE_REFUSAL}: a connection to ${h} that no feature asked for was closed.`,
    };
  }

  /** Records a connection seen outside the guard (watcher or renderer), as it was judged where it was seen. */
  recordSeen(event: Omit<EgressEvent, 'id' | 'at'>): EgressEvent {
    return this.sink.record({ ...event, at: this.now() });
  }

  /** Writes the bytes still waiting, then takes no more (the ledger is about to close). */
  dispose(): void {
    for (const write of [...this.unwritten]) write();
    this.disposed = true;
  }

  private decide(
    url: URL,
    known: boolean,
    feature: EgressFeature,
    host: string,
  ): { allowedBy: string; hostNamed: boolean } | { reason: string } {
    if (!known) {
      return {
        reason: `Homebody connects only over http(s), smtp(s) and imap(s), not ${url.protocol.replace(/:$/, '')}.`,
      };
    }
    const purpose = FEATURE_PURPOSES[feature];
    const allowHint = `Allow it on the Privacy page (Allow "${host}" for ${FEATURE_SHORT_NAMES[feature]}).`;
    if (this.forced) {
      return {
        reason: `Homebody was started offline (HOMEBODY_OFFLINE=1): it did not connect to ${host} for ${purpose}, and no rule applies until it is started without it.`,
      };
    }
    const match = matchingRule(this.current.rules, feature, host);
    if (!match && this.current.offline) {
      return { reason: `${OFFLINE_REFUSAL}: Homebody did not connect to ${host} for ${purpose}. ${allowHint}` };
    }
    const hostNamed = match?.exact === true;
    // Online or through a `*` rule, the web tools still need the user's word for this machine and the local network.
    if (feature === 'web' && isPrivateAddress(host) && !hostNamed) {
      return {
        reason: `Homebody's web tools do not reach ${host} unless you allow it: it is this machine or the local network. ${allowHint}`,
      };
    }
    return { allowedBy: match ? `rule ${feature}: ${match.rule.host}` : 'online', hostNamed };
  }

  private liveDownload(): string | undefined {
    for (const [source, at] of this.downloads) {
      if (this.now() - at <= this.ticketWindowMs) return source;
      this.downloads.delete(source);
    }
    return undefined;
  }

  private touch(host: string, port: number, download?: string): void {
    if (download !== undefined) this.downloads.set(download, this.now());
    this.live.set(`${host}:${port}`, this.now());
    if (this.live.size > 256) {
      for (const [key, at] of this.live) if (this.now() - at > this.ticketWindowMs) this.live.delete(key);
    }
  }

  private ticket(
    event: EgressEvent,
    host: string,
    port: number,
    hostNamed: boolean,
    download: string | undefined,
  ): EgressTicket {
    const sink = this.sink;
    let written = Number.NEGATIVE_INFINITY;
    let pending: number | null = null;
    let pendingSent: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const write = () => {
      clearTimeout(timer);
      timer = undefined;
      this.unwritten.delete(write);
      if (pending === null || this.disposed) return;
      written = this.now();
      sink.setBytes(event.id, pending, pendingSent);
      pending = null;
    };
    return {
      event,
      hostNamed,
      setBytes: (bytes: number, final = false, sent?: number) => {
        if (this.disposed) return;
        this.touch(host, port, download);
        pending = Math.max(0, Math.floor(bytes));
        if (sent !== undefined) pendingSent = Math.max(0, Math.floor(sent));
        if (final || this.now() - written >= this.bytesIntervalMs) write();
        else {
          // The last value is always written, a little later, so the ledger ends with the real total.
          timer ??= setTimeout(write, this.bytesIntervalMs).unref();
          this.unwritten.add(write);
        }
      },
    };
  }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1';
}
