import {
  visibleText,
  type McpServerConfig,
  type McpToolDefinition,
  type McpToolView,
  type McpTransportView,
} from '../../../src-shared/contract/index.js';

/** What the add form holds, as typed. */
export interface McpServerInputs {
  kind: 'stdio' | 'http';
  name: string;
  command: string;
  /** One argument per line (so an argument may hold spaces). */
  args: string;
  /** `KEY=value`, one per line. */
  env: string;
  url: string;
  /** `Name: value`, one per line. */
  headers: string;
}

export const emptyMcpInputs: McpServerInputs = {
  kind: 'stdio',
  name: '',
  command: '',
  args: '',
  env: '',
  url: '',
  headers: '',
};

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** Pairs from lines split at the first separator; the error names the line that has none. */
function pairs(text: string, separator: string, what: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const line of lines(text)) {
    const at = line.indexOf(separator);
    if (at <= 0) throw new Error(`Each ${what} line reads NAME${separator}value; "${line.slice(0, 40)}" does not.`);
    result[line.slice(0, at).trim()] = line.slice(at + separator.length).trim();
  }
  return result;
}

/** The configuration to send, or an error sentence for the form; the Host checks it again in full. */
export function configFromInputs(inputs: McpServerInputs): { config: McpServerConfig } | { error: string } {
  const name = inputs.name.trim();
  if (!name) return { error: 'Give the server a name.' };
  try {
    if (inputs.kind === 'stdio') {
      if (!inputs.command.trim()) return { error: 'Enter the command that starts the server.' };
      return {
        config: {
          name,
          transport: {
            kind: 'stdio',
            command: inputs.command.trim(),
            args: lines(inputs.args),
            env: pairs(inputs.env, '=', 'environment'),
          },
        },
      };
    }
    if (!inputs.url.trim()) return { error: 'Enter the server’s URL.' };
    return {
      config: {
        name,
        transport: { kind: 'http', url: inputs.url.trim(), headers: pairs(inputs.headers, ':', 'header') },
      },
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The transport in one line, secrets masked: `node server.js stdio · TOKEN=•••`. */
export function transportSummary(transport: McpTransportView): string {
  if (transport.kind === 'stdio') {
    const env = transport.envKeys.map((k) => `${k}=•••`);
    return [[transport.command, ...transport.args].join(' '), ...env].join(' · ');
  }
  return [transport.url, ...transport.headerKeys.map((k) => `${k}: •••`)].join(' · ');
}

/** A definition as the review shows it: the description, then the schema and annotations as indented JSON. */
export function definitionText(definition: McpToolDefinition | null): string {
  if (!definition) return '(a new tool: nothing was trusted before)';
  return [
    definition.description,
    `Input schema: ${JSON.stringify(definition.inputSchema, null, 2)}`,
    `Annotations: ${JSON.stringify(definition.annotations, null, 2)}`,
  ].join('\n\n');
}

/**
 * What the Settings row says beside a tool's risk about the server's claims: "claims read-only" while its
 * annotations are not trusted (it is a write until they are), "no annotations" for a tool that says nothing, and
 * "asks every time" when no grant or policy lets it run alone.
 */
export function toolNotes(tool: Pick<McpToolView, 'claim' | 'annotationRisk' | 'alwaysAsk'>): string[] {
  const notes: string[] = [];
  if (tool.claim === 'read-only' && tool.annotationRisk !== 'read') notes.push('claims read-only');
  if (tool.claim === 'none') notes.push('no annotations');
  if (tool.alwaysAsk) notes.push('asks every time');
  return notes;
}

/** A stdio command as the confirmation shows it: each part on its own, nothing hidden (see visibleText). */
export function commandParts(transport: Extract<McpTransportView, { kind: 'stdio' }>): {
  command: string;
  args: string[];
  envKeys: string[];
} {
  return {
    command: visibleText(transport.command),
    args: transport.args.map(visibleText),
    envKeys: transport.envKeys.map(visibleText),
  };
}

/** The code as typed: digits only ("493 028" and "493028" are the same code). */
export function codeDigits(typed: string): string {
  return typed.replace(/\D/g, '');
}
