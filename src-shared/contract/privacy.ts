import { z } from 'zod';

/**
 * What leaves the machine, and what stays on it.
 *
 * Network: offline mode is on by default. While it is on, a connection passes only when a rule allows its feature
 * and host (the user's exceptions: "this SMTP server", "this search endpoint"); with no rules nothing leaves the
 * machine. With offline mode off, every feature may connect (over the schemes the egress guard knows), except that
 * web tools still need a rule naming a loopback or private-network host.
 *
 * The ledger records every connection any part of Homebody attempted: the ones asked through the egress guard
 * (allowed or blocked) and the ones a watcher saw opened any other way (`via`), so it is complete, not a promise.
 */

/** The parts of Homebody that may need the network; rules are per feature and host. */
export const EGRESS_FEATURES = ['model-download', 'web', 'mail', 'mcp', 'remote-model'] as const;
export const EgressFeatureSchema = z.enum(EGRESS_FEATURES);
export type EgressFeature = z.infer<typeof EgressFeatureSchema>;

/** For people: what each feature connects for. */
export const EGRESS_FEATURE_LABELS: Readonly<Record<EgressFeature, string>> = {
  'model-download': 'Model downloads',
  web: 'Web tools (fetch a page, web search)',
  mail: 'Mail (SMTP sending, IMAP reading)',
  mcp: 'MCP servers over HTTP',
  'remote-model': 'A model on another computer (llama-server, vLLM, Ollama)',
};

/** A host name (lowercase, no port, no scheme), an IP address, or `*` for any host. */
export const RuleHostSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  .regex(/^(\*|[a-z0-9.:[\]-]+)$/, 'a host name, an IP address, or * for any host');

export const NetworkRuleSchema = z.object({ feature: EgressFeatureSchema, host: RuleHostSchema }).strict();
export type NetworkRule = z.infer<typeof NetworkRuleSchema>;

export const NetworkSettingsSchema = z
  .object({
    /** Default true: nothing leaves the machine but what a rule allows. */
    offline: z.boolean(),
    rules: z.array(NetworkRuleSchema).max(200),
  })
  .strict();
export type NetworkSettings = z.infer<typeof NetworkSettingsSchema>;

/** Who saw the connection: the egress guard (asked first), a watcher on Node's sockets, or the renderer's session. */
export const EgressViaSchema = z.enum(['guard', 'watcher', 'renderer']);
export type EgressVia = z.infer<typeof EgressViaSchema>;

export const EgressEventSchema = z.object({
  id: z.number().int(),
  /** ms since the epoch. */
  at: z.number().int(),
  /** Which part of Homebody or which tool, for people: "model download: BotPsy 0.8B Q8", "tool web_fetch". */
  source: z.string(),
  /** null when a watcher saw it and no feature asked for it. */
  feature: EgressFeatureSchema.nullable(),
  /** Without query and fragment (they may carry tokens). */
  url: z.string(),
  host: z.string(),
  port: z.number().int().nonnegative(),
  allowed: z.boolean(),
  /** Why it was blocked, or which rule or mode allowed it. */
  reason: z.string().nullable(),
  /** Bytes received, when known. */
  bytes: z.number().int().nonnegative().nullable(),
  /** Bytes sent, where the feature counts them (a model on another computer: the request's body). */
  sent: z.number().int().nonnegative().nullable().optional(),
  /** What the request carried, for people ("the conversation, 2 tool results"); absent where it says nothing. */
  carried: z.string().nullable().optional(),
  via: EgressViaSchema,
});
export type EgressEvent = z.infer<typeof EgressEventSchema>;

export const LedgerPageSchema = z.object({
  events: z.array(EgressEventSchema),
  /** How many events match the filter in all (the page may hold fewer). */
  total: z.number().int().nonnegative(),
  /** How many of the matching events were allowed. */
  allowedCount: z.number().int().nonnegative(),
});
export type LedgerPage = z.infer<typeof LedgerPageSchema>;

export const NetworkSettingsViewSchema = NetworkSettingsSchema.extend({
  features: z.array(z.object({ feature: EgressFeatureSchema, label: z.string() })),
});
export type NetworkSettingsView = z.infer<typeof NetworkSettingsViewSchema>;

/** One thing Homebody keeps on disk. */
export const StorageItemSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** Absolute path. */
  path: z.string(),
  /** Bytes on disk now (0 when missing). */
  bytes: z.number().int().nonnegative(),
  /** What is in it, for people. */
  description: z.string(),
  /** Whether "delete all my data" removes it (downloaded models only when asked). */
  deletedWithData: z.boolean(),
});
export type StorageItem = z.infer<typeof StorageItemSchema>;

/**
 * The OS sandbox the tool worker runs in: bubblewrap on Linux, Seatbelt on macOS, or none (Windows, no bwrap, no
 * user namespaces, or HOMEBODY_SANDBOX=off), when the tools are confined by Homebody's own path checks only.
 */
export const ToolSandboxSchema = z.object({
  kind: z.enum(['bubblewrap', 'seatbelt', 'none']),
  /** One sentence for people: what the tool worker sees and reaches, or that no OS sandbox confines it. */
  summary: z.string(),
  /** More of the same: what the network tools get, or what to do to have a sandbox. */
  detail: z.string(),
});
export type ToolSandbox = z.infer<typeof ToolSandboxSchema>;

export const StorageReportSchema = z.object({
  dataDir: z.string(),
  items: z.array(StorageItemSchema),
  totalBytes: z.number().int().nonnegative(),
  /** How secrets (mail passwords, MCP tokens) are kept: the OS keychain, or the browser-mode fallback. */
  secrets: z.object({ protection: z.enum(['os-keychain', 'key-file']), description: z.string() }),
  /** What keeps the tools away from everything else on this computer, the data folder included. */
  sandbox: ToolSandboxSchema,
});
export type StorageReport = z.infer<typeof StorageReportSchema>;

/** How every refusal by offline mode begins, so that any place showing one can offer the way to allow it. */
export const OFFLINE_REFUSAL = 'Offline mode is on';

/** Whether an error text is offline mode's refusal (a failed tool call carries only the text). */
export function isOfflineRefusal(text: string | null | undefined): boolean {
  return typeof text === 'string' && text.startsWith(OFFLINE_REFUSAL);
}

/** The words the user types to confirm "delete all my data"; the Host refuses anything else. */
export const DELETE_ALL_CONFIRMATION = 'delete my data';

export const privacyApiSchemas = {
  /** Newest first. `allowedOnly` lists only allowed connections; `beforeId` pages back. */
  'privacy.ledger': {
    request: z
      .object({
        limit: z.number().int().min(1).max(1000).optional(),
        beforeId: z.number().int().positive().optional(),
        allowedOnly: z.boolean().optional(),
      })
      .strict(),
    response: LedgerPageSchema,
  },
  'privacy.network': { request: z.object({}).strict(), response: NetworkSettingsViewSchema },
  /** Replaces what is given (the whole rule list when `rules` is given). */
  'privacy.setNetwork': { request: NetworkSettingsSchema.partial().strict(), response: NetworkSettingsViewSchema },
  /** Adds one rule (the "allow this host" answer to a blocked connection); a rule already there is kept once. */
  'privacy.allow': { request: NetworkRuleSchema, response: NetworkSettingsViewSchema },
  'privacy.storage': { request: z.object({}).strict(), response: StorageReportSchema },
  /**
   * Deletes every task, message, call, approval, audit and ledger event, setting, secret, undo copy and saved prompt
   * cache, and the packs' default folders; downloaded models too when `includeModels`. The Host goes on with an
   * empty store.
   */
  'privacy.deleteAllData': {
    request: z.object({ confirm: z.literal(DELETE_ALL_CONFIRMATION), includeModels: z.boolean() }).strict(),
    response: z.object({ deletedBytes: z.number().int().nonnegative(), removed: z.array(z.string()) }),
  },
} as const;

/** Pushed as each ledger event is recorded (and when its bytes change), so the Privacy page is live. */
export const EgressRecordedEventSchema = z.object({ type: z.literal('egress.recorded'), event: EgressEventSchema });
/** All data was deleted: the renderer drops everything it holds and starts over. */
export const DataDeletedEventSchema = z.object({ type: z.literal('privacy.dataDeleted') });
