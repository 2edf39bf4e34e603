import { z } from 'zod';
import { RiskSchema } from './tools.js';

/**
 * MCP servers as tool sources. A server is started only once the user enables it, and a stdio server (a command
 * that runs on this computer) only once the user confirmed its exact command in the app: a native dialog in the
 * desktop app, a dialog and a code printed in the terminal in browser mode. Its tools then appear with a risk
 * taken from their annotations, read as the server's claims (see `McpClaimSchema`), or the user's override. A tool
 * whose definition changed since the user trusted it is held (not offered, calls refused) until the user reviews
 * the change here.
 *
 * Values of environment variables and HTTP headers may be secrets: they go to the Host and never come back; a view
 * shows their names only.
 */

/** Letters, digits, `-`, `_` and `.`, as mcp.json files name servers; it becomes part of each tool's name. */
export const McpServerNameSchema = z
  .string()
  .trim()
  .min(1, 'a server needs a name')
  .max(40, 'a server name has at most 40 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a server name uses letters, digits, "-", "_" and "." only');

const Values = z.record(z.string().min(1).max(200), z.string().max(8192));

export const McpStdioTransportSchema = z.object({
  kind: z.literal('stdio'),
  command: z.string().trim().min(1, 'a stdio server needs a command').max(4096),
  args: z.array(z.string().max(4096)).max(100).default([]),
  env: Values.default({}),
});

export const McpHttpTransportSchema = z.object({
  kind: z.literal('http'),
  url: z.url({ protocol: /^https?$/, error: 'the URL must start with http:// or https://' }).max(2048),
  headers: Values.default({}),
});

/**
 * Code points that control a terminal or hide and reorder text: C0 and C1 controls, bidirectional and zero-width
 * marks, lone surrogates, tags.
 */
const HIDDEN_CODE_POINTS: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x061c, 0x061c],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0xd800, 0xdfff],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
  [0xe0000, 0xe007f],
];

/**
 * A command or argument as shown for confirmation: control characters and the invisible ones that reorder or hide
 * text are written as \u escapes, so what the user reads is what runs (and a terminal is not steered by it).
 */
export function visibleText(text: string): string {
  let shown = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const hidden = HIDDEN_CODE_POINTS.some(([from, to]) => code >= from && code <= to);
    shown += hidden ? (code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`) : char;
  }
  return shown;
}

export const McpTransportSchema = z.discriminatedUnion('kind', [McpStdioTransportSchema, McpHttpTransportSchema]);
export type McpTransport = z.infer<typeof McpTransportSchema>;

export const McpServerConfigSchema = z.object({ name: McpServerNameSchema, transport: McpTransportSchema });
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

/** A transport as shown: secret values left out, their names kept. */
export const McpTransportViewSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stdio'), command: z.string(), args: z.array(z.string()), envKeys: z.array(z.string()) }),
  z.object({ kind: z.literal('http'), url: z.string(), headerKeys: z.array(z.string()) }),
]);
export type McpTransportView = z.infer<typeof McpTransportViewSchema>;

/** What the user trusts of a tool: a change to any of it holds the tool until reviewed. */
export const McpToolDefinitionSchema = z.object({
  description: z.string(),
  inputSchema: z.unknown(),
  annotations: z.unknown(),
});
export type McpToolDefinition = z.infer<typeof McpToolDefinitionSchema>;

/**
 * What a tool's annotations claim, whoever trusts them: none (no hint at all: it asks every time), read-only
 * (`readOnlyHint: true`), destructive (`destructiveHint: true`, which always makes it irreversible), or other
 * (some hint, neither of those). Only a boolean counts as a hint.
 */
export const McpClaimSchema = z.enum(['none', 'read-only', 'destructive', 'other']);
export type McpClaim = z.infer<typeof McpClaimSchema>;

export const McpToolViewSchema = z.object({
  /** The name Homebody offers it under: mcp_<server>_<tool>. */
  name: z.string(),
  /** The server's own name for it. */
  tool: z.string(),
  description: z.string(),
  /** The risk it runs with: the override if set, else the one its annotations give. */
  risk: RiskSchema,
  /** The risk its annotations give, as far as the server's annotations are trusted. */
  annotationRisk: RiskSchema,
  override: RiskSchema.nullable(),
  claim: McpClaimSchema,
  /** It asks before every call: no task grant or policy lets it run alone (no override and no trusted claim). */
  alwaysAsk: z.boolean(),
  /** Set when the tool changed (or appeared) after the user trusted the server: not offered until reviewed. */
  held: z
    .object({
      /** The definition the user trusted; null for a tool that is new since. */
      trusted: McpToolDefinitionSchema.nullable(),
      current: McpToolDefinitionSchema,
    })
    .nullable(),
});
export type McpToolView = z.infer<typeof McpToolViewSchema>;

export const McpServerStatusSchema = z.enum(['stopped', 'starting', 'running', 'failed']);
export type McpServerStatus = z.infer<typeof McpServerStatusSchema>;

/** A confirmation the page answers (browser mode): `id` goes back in `mcp.confirmCommand`, with the code. */
export const McpPendingConfirmationSchema = z.object({ id: z.string(), expiresAt: z.number() });
export type McpPendingConfirmation = z.infer<typeof McpPendingConfirmationSchema>;

export const McpServerViewSchema = z.object({
  name: z.string(),
  transport: McpTransportViewSchema,
  enabled: z.boolean(),
  /** The user trusts this server's annotations: a tool that claims to be read-only is then a read. */
  trustAnnotations: z.boolean(),
  /** A stdio server whose command, arguments or environment names the user has not confirmed (as they are now). */
  needsConfirmation: z.boolean(),
  /** Set while the page is asked to confirm its command (browser mode); null otherwise. */
  confirmation: McpPendingConfirmationSchema.nullable(),
  status: McpServerStatusSchema,
  /** Why it failed (or why its last call did), in a sentence. */
  error: z.string().nullable(),
  /** Its tools as last listed (kept while it is stopped). */
  tools: z.array(McpToolViewSchema),
  /** Tools that cannot be offered, with the reason (a schema the model cannot be given, a name that clashes). */
  skipped: z.array(z.object({ tool: z.string(), reason: z.string() })),
});
export type McpServerView = z.infer<typeof McpServerViewSchema>;

const Servers = z.object({ servers: z.array(McpServerViewSchema) });
const Name = z.object({ name: McpServerNameSchema }).strict();
const ToolRef = { server: McpServerNameSchema, tool: z.string().min(1).max(200) };

export const mcpApiSchemas = {
  'mcp.list': { request: z.object({}).strict(), response: Servers },
  /** Adds a server, disabled: nothing runs until the user enables it. */
  'mcp.add': { request: z.object({ server: McpServerConfigSchema }).strict(), response: Servers },
  /**
   * Adds every server of an mcp.json (Claude Desktop's and Cursor's "mcpServers", VS Code's "servers" with its
   * variables), disabled; all or none. A file that needs values VS Code would ask for (`${input:...}`) is refused
   * with each one named.
   */
  'mcp.import': {
    request: z.object({ text: z.string().min(1).max(1_000_000) }).strict(),
    response: Servers.extend({ added: z.array(z.string()) }),
  },
  'mcp.remove': { request: Name, response: Servers },
  /**
   * Enabling starts the server and answers once it runs or failed; disabling stops it. A stdio server whose command
   * is not confirmed is first shown to the user to confirm (this call waits for the answer); declined, it stays off.
   */
  'mcp.setEnabled': { request: Name.extend({ enabled: z.boolean() }).strict(), response: Servers },
  /** Stops and starts an enabled server; one whose command is not confirmed is shown to the user first. */
  'mcp.restart': { request: Name, response: Servers },
  /**
   * Browser mode's answer to a confirmation the page shows: the code `homebody serve` printed in its terminal, or
   * null when the user cancelled. `accepted` is false when no confirmation waits for this id; a wrong code ends it.
   */
  'mcp.confirmCommand': {
    request: z.object({ id: z.string().min(1).max(64), code: z.string().trim().min(1).max(32).nullable() }).strict(),
    response: z.object({ accepted: z.boolean() }),
  },
  /** Whether to trust this server's annotations (off by default); the change is audited. */
  'mcp.setTrustAnnotations': { request: Name.extend({ trust: z.boolean() }).strict(), response: Servers },
  /** Trusts a held tool's current definition, so it is offered again. */
  'mcp.review': { request: z.object(ToolRef).strict(), response: Servers },
  /** Overrides the risk a tool's annotations give; null goes back to the annotations. */
  'mcp.setRisk': { request: z.object({ ...ToolRef, risk: RiskSchema.nullable() }).strict(), response: Servers },
} as const;
