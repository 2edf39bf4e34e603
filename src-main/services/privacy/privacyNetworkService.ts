import { z } from 'zod';
import {
  EGRESS_FEATURES,
  EGRESS_FEATURE_LABELS,
  HomebodyError,
  NetworkSettingsSchema,
  type EgressEvent,
  type HostEvent,
  type NetworkRule,
  type NetworkSettings,
  type NetworkSettingsView,
} from '../../../src-shared/contract/index.js';
import { watchConnections } from '../../privacy/connectionWatcher.js';
import { EgressGuard } from '../../privacy/egressGuard.js';
import { ledgerUrl, type EgressSink, type ObservedConnection } from '../../privacy/egressLedger.js';
import {
  DEFAULT_NETWORK_SETTINGS,
  FEATURE_SHORT_NAMES,
  dedupeRules,
  normalizeHost,
  withRule,
} from '../../privacy/networkRules.js';
import type { Store } from '../../store/store.js';
import type { HandlersOf } from '../handlers.js';

/** Where the user's network settings (offline mode and rules) are kept in the settings table. */
export const NETWORK_SETTINGS_KEY = 'privacy.network';
const MAX_RULES = 200;
const DEFAULT_LEDGER_PAGE = 200;

type NetworkMethod = 'privacy.ledger' | 'privacy.network' | 'privacy.setNetwork' | 'privacy.allow';

export interface PrivacyNetworkDeps {
  readonly store: Store;
  readonly emit: (event: HostEvent) => void;
  /** HOMEBODY_OFFLINE=1 or createHost's `offline`: nothing leaves the machine, rules included. */
  readonly forceOffline: boolean;
  readonly now?: () => number;
}

/**
 * Offline mode, the per-feature rules and the egress ledger behind the contract: the guard every connection asks
 * (its settings stored under NETWORK_SETTINGS_KEY, offline with no rules until the user says otherwise), the ledger
 * it writes (the store's egress_events, each event also pushed to the renderer), and every change audited.
 */
export function createPrivacyNetworkService(deps: PrivacyNetworkDeps) {
  const { store, emit } = deps;
  const now = deps.now ?? Date.now;
  const sink: EgressSink = {
    record(event) {
      const recorded = store.egress.append(event);
      emit({ type: 'egress.recorded', event: recorded });
      return recorded;
    },
    // The guard writes a ticket's bytes at most ~2/s, so these pushes are too.
    setBytes(id, bytes, sent) {
      const updated = store.egress.setBytes(id, bytes, sent);
      if (updated) emit({ type: 'egress.recorded', event: updated });
    },
  };
  const guard = new EgressGuard({ forceOffline: deps.forceOffline, settings: storedSettings(store), sink, now });

  const view = (): NetworkSettingsView => ({
    offline: guard.offline,
    rules: guard.settings().rules,
    features: EGRESS_FEATURES.map((feature) => ({ feature, label: EGRESS_FEATURE_LABELS[feature] })),
  });

  const save = (next: NetworkSettings, summary: string) => {
    if (next.rules.length > MAX_RULES) {
      throw new HomebodyError(
        'INVALID_REQUEST',
        `Homebody keeps at most ${MAX_RULES} network rules; remove some first.`,
      );
    }
    store.transaction(() => {
      store.settings.set(NETWORK_SETTINGS_KEY, next);
      store.audit.append({
        at: now(),
        taskId: null,
        callId: null,
        kind: 'network-changed',
        actor: 'user',
        summary,
        detail: next,
      });
    });
    guard.setSettings(next);
    return view();
  };

  const handlers: HandlersOf<NetworkMethod> = {
    'privacy.ledger': async ({ limit, beforeId, allowedOnly }) =>
      store.egress.page({
        limit: limit ?? DEFAULT_LEDGER_PAGE,
        ...(beforeId === undefined ? {} : { beforeId }),
        ...(allowedOnly ? { allowedOnly } : {}),
      }),
    'privacy.network': async () => view(),
    'privacy.setNetwork': async (patch) => {
      const current = guard.settings();
      const next: NetworkSettings = {
        offline: patch.offline ?? current.offline,
        rules: patch.rules ? dedupeRules(patch.rules) : current.rules,
      };
      return save(next, describeChange(current, next));
    },
    'privacy.allow': async (rule) => {
      const current = guard.settings();
      const rules = withRule(current.rules, rule);
      if (rules.length === current.rules.length) return view();
      return save(
        { ...current, rules },
        `Allowed "${rule.host}" for ${FEATURE_SHORT_NAMES[rule.feature]}${current.offline ? ' while offline' : ''}`,
      );
    },
  };

  let stopWatching: (() => void) | undefined;

  return {
    guard,
    handlers,
    /** Allows a host for a feature, as the user's rule (a node added with "allow while offline"). */
    allow: (rule: NetworkRule) => handlers['privacy.allow'](rule),
    /** Takes that rule away again (its node was removed); nothing happens when there is no such rule. */
    disallow: (rule: NetworkRule) => {
      const current = guard.settings();
      const host = normalizeHost(rule.host);
      const rules = current.rules.filter((r) => !(r.feature === rule.feature && normalizeHost(r.host) === host));
      if (rules.length === current.rules.length) return view();
      return save({ ...current, rules }, `Stopped allowing "${rule.host}" for ${FEATURE_SHORT_NAMES[rule.feature]}`);
    },
    /**
     * Watches this process's client connections (connectionWatcher.ts): one the guard did not allow just before is
     * recorded as `unattributed (<route>)`, and closed first when offline mode would refuse it.
     */
    watch(): void {
      stopWatching ??= watchConnections({
        judge: (seen) => (guard.covers(seen.host, seen.port) ? null : guard.judgeUnasked(seen.host)),
        record: (seen, verdict) => {
          guard.recordSeen({
            source: `unattributed (${seen.route})`,
            feature: null,
            url: seen.url,
            host: seen.host,
            port: seen.port,
            allowed: verdict.allowed,
            reason: verdict.reason,
            bytes: null,
            via: 'watcher',
          });
        },
      });
    },
    /** Records a connection the tool worker's watcher saw (and closed) for a call of `tool`, as the worker told it. */
    recordToolConnection(tool: string, report: unknown): void {
      const seen = ToolConnectionSchema.parse(report);
      guard.recordSeen({
        source: `tool ${tool} (${seen.route})`,
        feature: null,
        url: seen.url,
        host: seen.host,
        port: seen.port,
        allowed: seen.allowed,
        reason: seen.reason,
        bytes: null,
        via: 'watcher',
      });
    },
    /** Records a connection seen outside the guard (the renderer's session, a watcher). */
    recordConnection(observed: ObservedConnection): EgressEvent {
      const { url, host, port } = ledgerUrl(observed.url);
      const defaultPort = /^https:|^wss:/.test(url) ? 443 : /^http:|^ws:/.test(url) ? 80 : 0;
      return guard.recordSeen({
        source: observed.source,
        feature: null,
        url,
        host,
        port: port ?? defaultPort,
        allowed: observed.allowed,
        reason: observed.reason,
        bytes: null,
        via: observed.via,
      });
    },
    /** Stops watching and writes what is pending to the ledger; call before the store closes. */
    dispose(): void {
      stopWatching?.();
      guard.dispose();
    },
    /** Reads the stored settings again (after all data was deleted, they are the defaults). */
    reload(): void {
      guard.setSettings(storedSettings(store));
    },
    /** After "Delete all my data": offline mode with no rules, as a new install has it. */
    afterWipe(): void {
      guard.setSettings({ ...DEFAULT_NETWORK_SETTINGS });
    },
  };
}
export type PrivacyNetworkService = ReturnType<typeof createPrivacyNetworkService>;

/** What the tool worker reports of a connection it saw: checked, since it crosses a process boundary. */
const ToolConnectionSchema = z
  .object({
    kind: z.literal('connection'),
    url: z.string().max(300),
    host: z.string().max(253),
    port: z.number().int().min(0).max(65535),
    route: z.string().max(40),
    allowed: z.boolean(),
    reason: z.string().max(500),
  })
  .strict();

/** The stored settings; none (a new install, or after all data was deleted) or unreadable ones mean the default. */
function storedSettings(store: Store): NetworkSettings {
  const parsed = NetworkSettingsSchema.safeParse(store.settings.get(NETWORK_SETTINGS_KEY));
  return parsed.success ? { ...parsed.data, rules: dedupeRules(parsed.data.rules) } : DEFAULT_NETWORK_SETTINGS;
}

function describeChange(before: NetworkSettings, after: NetworkSettings): string {
  const parts: string[] = [];
  if (before.offline !== after.offline)
    parts.push(after.offline ? 'Offline mode turned on' : 'Offline mode turned off');
  if (JSON.stringify(before.rules) !== JSON.stringify(after.rules)) {
    parts.push(`Network rules replaced (${after.rules.length} now)`);
  }
  return parts.length ? parts.join('; ') : 'Network settings saved unchanged';
}
