import { createHash } from 'node:crypto';
import type { McpClaim, McpToolDefinition, Risk } from '../../../src-shared/contract/index.js';
import { compileValidator, MAX_TOOL_NAME_LENGTH, normalizeParameters } from '../schema/index.js';
import type { JsonSchema, JsonValue, ToolDescription, ToolForPeople } from '../toolTypes.js';

/** A tool as the server lists it (the parts Homebody uses). */
export interface ListedTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema: unknown;
  readonly annotations?: unknown;
}

/** The Homebody name of a server's tool: `mcp_<server>_<tool>`, in the registry's characters, at most 64 long. */
export function mcpToolName(server: string, tool: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9_]/g, '_');
  return `mcp_${safe(server)}_${safe(tool)}`.slice(0, MAX_TOOL_NAME_LENGTH);
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

function hintsOf(annotations: unknown): Record<string, unknown> {
  return typeof annotations === 'object' && annotations !== null && !Array.isArray(annotations)
    ? (annotations as Record<string, unknown>)
    : {};
}

/** What a tool's annotations claim. Only a boolean is a hint: `"true"` or `1` claims nothing. */
export function claimOf(annotations: unknown): McpClaim {
  const hints = hintsOf(annotations);
  if (hints.destructiveHint === true) return 'destructive';
  if (hints.readOnlyHint === true) return 'read-only';
  return HINTS.some((hint) => typeof hints[hint] === 'boolean') ? 'other' : 'none';
}

export interface McpToolRisk {
  /** What the tool runs with. */
  readonly risk: Risk;
  /** What the annotations give, as far as they are trusted (before the user's override). */
  readonly annotationRisk: Risk;
  readonly claim: McpClaim;
  /** No task grant or policy lets it run without asking (ToolDefinition.alwaysAsk). */
  readonly alwaysAsk: boolean;
}

/**
 * A tool's risk from its annotations, which are the server's claims. A claim that asks for more care always counts:
 * `destructiveHint: true` makes it irreversible, whatever else it says. A claim that asks for less counts only when
 * the user trusts the server's annotations: then `readOnlyHint: true` makes it a read, and any other hint a write.
 * Otherwise, and for a tool with no hint at all, it is a write that asks before every call. The user's override
 * (Settings) is their own decision and wins over all of this.
 */
export function mcpToolRisk(annotations: unknown, trustAnnotations: boolean, override: Risk | null): McpToolRisk {
  const claim = claimOf(annotations);
  const fromClaim = ((): { risk: Risk; alwaysAsk: boolean } => {
    switch (claim) {
      case 'destructive':
        return { risk: 'irreversible', alwaysAsk: false };
      case 'read-only':
        return trustAnnotations ? { risk: 'read', alwaysAsk: false } : { risk: 'write', alwaysAsk: true };
      case 'other':
        return { risk: 'write', alwaysAsk: !trustAnnotations };
      case 'none':
        return { risk: 'write', alwaysAsk: true };
      default:
        return claim satisfies never;
    }
  })();
  if (override) return { risk: override, annotationRisk: fromClaim.risk, claim, alwaysAsk: false };
  return { risk: fromClaim.risk, annotationRisk: fromClaim.risk, claim, alwaysAsk: fromClaim.alwaysAsk };
}

/**
 * Whether the tool may reach beyond this machine: MCP's openWorldHint, which the specification defaults to true.
 * A stdio server is a program of its own, outside the egress guard; only a server whose annotations the user trusts
 * is believed when it says otherwise, since that claim lets a tainted task's calls run without asking again.
 */
export function reachesOutFromAnnotations(annotations: unknown, trustAnnotations: boolean): boolean {
  return !(trustAnnotations && hintsOf(annotations).openWorldHint === false);
}

export function definitionOf(tool: ListedTool): McpToolDefinition {
  return {
    description: tool.description ?? '',
    inputSchema: tool.inputSchema ?? null,
    annotations: tool.annotations ?? null,
  };
}

/** JSON with object keys sorted, so the same definition always hashes alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What the user trusted, as one digest: description, input schema and annotations. */
export function definitionHash(definition: McpToolDefinition): string {
  return createHash('sha256').update(canonical(definition)).digest('hex');
}

const MAX_DESCRIPTION_CHARS = 300;

/**
 * A server's description, kept short for a small model: its first sentences up to 300 characters. The full text
 * stays in the trusted definition the user reviews.
 */
export function shortDescription(description: string, server: string): string {
  const text = description.replace(/\s+/g, ' ').trim();
  if (!text) return `A tool of the MCP server ${server}.`;
  if (text.length <= MAX_DESCRIPTION_CHARS) return text;
  const cut = text.slice(0, MAX_DESCRIPTION_CHARS);
  const sentenceEnd = cut.lastIndexOf('. ');
  return sentenceEnd > 40 ? cut.slice(0, sentenceEnd + 1) : `${cut.slice(0, MAX_DESCRIPTION_CHARS - 1)}…`;
}

const MAX_TITLE_CHARS = 80;

/**
 * What people read about a server's tool. Its title is the one its annotations give (`annotations.title`), else the
 * server's name for it; the title MCP also allows beside the annotations is not used, since it is no part of the
 * definition the user trusted, so a server could change it unseen. Its text is the short description the model gets
 * too: a server writes its descriptions for people and models alike.
 */
export function mcpForPeople(tool: ListedTool, server: string): ToolForPeople {
  const given = hintsOf(tool.annotations).title;
  const title = typeof given === 'string' ? given.replace(/\s+/g, ' ').trim() : '';
  return {
    title: title ? (title.length > MAX_TITLE_CHARS ? `${title.slice(0, MAX_TITLE_CHARS - 1)}…` : title) : tool.name,
    text: shortDescription(tool.description ?? '', server),
  };
}

const MAX_SCHEMA_CHARS = 8000;
const UNUSABLE = 'Note: the original parameter schema was not usable';

/** The schema the model is offered, or why the tool cannot be offered at all. */
export function offerableSchema(inputSchema: unknown): { schema: JsonSchema } | { reason: string } {
  const schema = normalizeParameters(inputSchema);
  const note = typeof schema.description === 'string' ? schema.description : '';
  // normalizeParameters never throws: an unreadable schema comes back as "any arguments", which would let the
  // model send anything to a program outside Homebody. Such a tool is left out, with the reason shown.
  if (note.startsWith(UNUSABLE)) return { reason: `its input schema cannot be offered (${note.slice(6)})` };
  const size = JSON.stringify(schema).length;
  // Every offered schema is in the prompt and the grammar at each turn; a small model drowns in a huge one.
  if (size > MAX_SCHEMA_CHARS)
    return { reason: `its input schema is too large to offer (${size} characters; the limit is ${MAX_SCHEMA_CHARS})` };
  try {
    compileValidator(schema);
  } catch (error) {
    return { reason: `its input schema cannot be checked (${(error as Error).message})` };
  }
  return { schema };
}

/** The permission prompt of an MCP call: which server, which tool, and the exact arguments. */
export function describeMcpCall(server: string, tool: string, args: Record<string, JsonValue>): ToolDescription {
  return {
    title: `${tool} (MCP server ${server})`,
    summary: `Ask the MCP server "${server}" to run its tool "${tool}"`,
    details: Object.entries(args).map(([label, value]) => ({
      label,
      value: typeof value === 'string' ? value : JSON.stringify(value),
    })),
  };
}
