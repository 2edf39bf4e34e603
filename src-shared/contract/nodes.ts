import { z } from 'zod';
import { ModelStateSchema } from './model.js';

const Id = z.string().min(1).max(64);
/** A node's base URL as the user typed it: http or https, checked and normalised by the Host. */
const NodeUrl = z.string().min(1).max(2048);
/** A SHA-256 certificate fingerprint as Node writes it: 32 hex pairs joined by colons. */
export const FingerprintSchema = z
  .string()
  .regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/, 'a SHA-256 fingerprint is 32 hex pairs joined by colons (AB:CD:…)');
const ApiKey = z.string().min(1).max(4096);

/** How Homebody speaks to a node: llama-server's completion endpoint in the model's dialect, or the OpenAI API. */
export const RemoteProtocolSchema = z.enum(['dialect', 'openai']);

/** What a node answered when asked, before anything is saved: shown to the user, who then adds it or not. */
export const NodeProbeSchema = z.object({
  /** The URL as Homebody will use it (a trailing `/v1` or `/` taken off). */
  url: z.string(),
  /** The model it serves (the first its API lists), and every one it lists. */
  model: z.string(),
  models: z.array(z.string()),
  contextSize: z.number().int().positive(),
  protocol: RemoteProtocolSchema,
  /** Over https, the certificate it showed, for the user to compare and pin; null over plain http. */
  fingerprint: FingerprintSchema.nullable(),
  /** True when the round trip of this probe went over plain http: anyone on the network can read it. */
  plainHttp: z.boolean(),
});
export type NodeProbe = z.infer<typeof NodeProbeSchema>;

/** A model on another computer the user added. Its API key, if any, is sealed in the secret store, never shown. */
export const RemoteNodeSchema = z.object({
  id: Id,
  /** For people: "llama-server on 192.168.1.20:8080" unless the user named it. */
  label: z.string(),
  url: z.string(),
  /** The model it must serve; a node that serves another is refused (REMOTE_WRONG_MODEL). */
  model: z.string(),
  contextSize: z.number().int().positive(),
  protocol: RemoteProtocolSchema,
  /** The certificate pinned when it was added (https), or null (http). */
  fingerprint: FingerprintSchema.nullable(),
  hasApiKey: z.boolean(),
  /** Offline mode lets Homebody reach this host (a `remote-model` rule for it). */
  allowOffline: z.boolean(),
  /** True when it is the model in use (or connecting) now. */
  active: z.boolean(),
  addedAt: z.number().int(),
});
export type RemoteNode = z.infer<typeof RemoteNodeSchema>;

/** The model reference a node is used under, in place of a file path: `remote:<id>`. */
export const REMOTE_PREFIX = 'remote:';

/** The reference `remote:<id>` a node is used under (model state, last model, evaluation). */
export function remoteReference(id: string): string {
  return `${REMOTE_PREFIX}${id}`;
}

/** Whether a model reference names a node rather than a file (a file's path is absolute, never `remote:`). */
export function isRemoteReference(path: string): boolean {
  return path.startsWith(REMOTE_PREFIX);
}

/** A node's model as people read it: "botpsy-q8 on the study". */
export function remoteModelName(node: { readonly model: string; readonly label: string }): string {
  return `${node.model} on ${node.label}`;
}

export const nodesApiSchemas = {
  /** The nodes the user added, oldest first. */
  'nodes.list': { request: z.object({}).strict(), response: z.object({ nodes: z.array(RemoteNodeSchema) }) },
  /**
   * Asks a server what it serves, without saving anything: its model, context, the protocol Homebody would use and,
   * over https, its certificate's fingerprint. Asked of the egress guard like every request to a node.
   * Errors: INVALID_REQUEST (a URL that is not http/https), NETWORK_BLOCKED, REMOTE_*.
   */
  'nodes.probe': {
    request: z
      .object({
        url: NodeUrl,
        apiKey: ApiKey.optional(),
        /**
         * The user ticked "allow this host while offline": offline mode lets this probe through; the rule is kept
         * only when the node is added (nodes.add with allowOffline), and one that existed before is left as it was.
         */
        allowOffline: z.boolean().optional(),
      })
      .strict(),
    response: NodeProbeSchema,
  },
  /**
   * Adds a node after the user saw its probe. Over https `fingerprint` is the one the user saw: it is pinned, and a
   * server showing another now is refused (REMOTE_CERTIFICATE_CHANGED). `model` is the one to require (default: the
   * first listed). Errors: INVALID_REQUEST, NETWORK_BLOCKED, REMOTE_*, MODEL_ALREADY_PRESENT (that URL is added).
   */
  'nodes.add': {
    request: z
      .object({
        url: NodeUrl,
        apiKey: ApiKey.optional(),
        fingerprint: FingerprintSchema.optional(),
        model: z.string().min(1).max(512).optional(),
        label: z.string().min(1).max(120).optional(),
        allowOffline: z.boolean().optional(),
      })
      .strict(),
    response: RemoteNodeSchema,
  },
  /** Forgets a node, its sealed key and the offline rule it added; the model in use is closed first if it is this one. */
  'nodes.remove': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ id: Id, message: z.string() }),
  },
  /** Lets offline mode reach this node's host, or stops letting it. Errors: MODEL_NOT_FOUND. */
  'nodes.setAllowOffline': {
    request: z.object({ id: Id, allow: z.boolean() }).strict(),
    response: RemoteNodeSchema,
  },
  /**
   * Makes the node's model the one the chat uses, like `models.activate`: resolves with the final state. A node that
   * cannot be reached leaves the model in use as it was and rejects with why. Errors: MODEL_NOT_FOUND, REMOTE_*.
   */
  'nodes.use': { request: z.object({ id: Id }).strict(), response: ModelStateSchema },
} as const;
