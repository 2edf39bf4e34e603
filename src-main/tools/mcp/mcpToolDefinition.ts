import { createHash } from 'node:crypto';
import type { McpToolDefinition, Risk } from '../../../src-shared/contract/index.js';
import { compileValidator, MAX_TOOL_NAME_LENGTH, normalizeParameters } from '../schema/index.js';
import type { JsonSchema, JsonValue, ToolDescription } from '../toolTypes.js';

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

/** readOnlyHint: read; destructiveHint: irreversible; anything else may change something: write. */
export function riskFromAnnotations(annotations: unknown): Risk {
  const hints = (typeof annotations === 'object' && annotations !== null ? annotations : {}) as Record<string, unknown>;
  if (hints.readOnlyHint === true) return 'read';
  if (hints.destructiveHint === true) return 'irreversible';
  return 'write';
}

/**
 * Whether the tool may reach beyond this machine: MCP's openWorldHint, which the specification defaults to true.
 * A stdio server is a program of its own, outside the egress guard; only a server that says otherwise is trusted
 * not to carry a tainted task's data out.
 */
export function reachesOutFromAnnotations(annotations: unknown): boolean {
  const hints = (typeof annotations === 'object' && annotations !== null ? annotations : {}) as Record<string, unknown>;
  return hints.openWorldHint !== false;
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
