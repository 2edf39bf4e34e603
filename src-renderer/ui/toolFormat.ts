import type { Decision, Risk, ToolCall, ToolTouches } from '../../src-shared/contract/index.js';

/** What the user reads as a call's state: the contract's words, as everywhere. */
export { toolCallStateWords as toolCallStateLabel } from '../../src-shared/contract/index.js';

/**
 * A risk in words, where what the tool acts on is not known (a tool of an MCP server, a recorded call): a write
 * "Changes things", since many writes change no file (the clipboard, a notification).
 */
export function riskLabel(risk: Risk): string {
  switch (risk) {
    case 'read':
      return 'Reads';
    case 'write':
      return 'Changes things';
    case 'irreversible':
      return 'Cannot be undone';
    default:
      return risk satisfies never;
  }
}

const READS: Record<ToolTouches, string> = {
  files: 'Reads files',
  calendar: 'Reads your calendar',
  contacts: 'Reads your contacts',
  notes: 'Reads your notes',
  mail: 'Reads your mail',
  reminders: 'Reads your reminders',
  device: 'Reads your device',
  web: 'Reads the web',
  nothing: 'Touches nothing',
};

const CHANGES: Record<ToolTouches, string> = {
  files: 'Changes files',
  calendar: 'Changes your calendar',
  contacts: 'Changes your contacts',
  notes: 'Changes your notes',
  mail: 'Changes your mail',
  reminders: 'Changes your reminders',
  device: 'Uses your device',
  web: 'Changes things on the web',
  // A write that touches nothing is a contradiction; it still changes something.
  nothing: 'Changes things',
};

/**
 * A tool's badge, from its risk and what it acts on: "Reads your calendar", "Changes files", "Uses your device".
 * An irreversible tool says "Cannot be undone" whatever it acts on, since that is what to know first; where what it
 * acts on is not known (null), the risk alone.
 */
export function toolBadge(risk: Risk, touches: ToolTouches | null): string {
  if (touches === null || risk === 'irreversible') return riskLabel(risk);
  return risk === 'read' ? READS[touches] : CHANGES[touches];
}

function decisionWords(decision: Decision): string {
  switch (decision) {
    case 'auto':
      return 'allowed by policy';
    case 'allow-once':
      return 'allowed once';
    case 'allow-task':
      return 'allowed for this task';
    case 'always':
      return 'always allowed';
    case 'approve':
      return 'approved';
    case 'deny':
      return 'denied';
    default:
      return decision satisfies never;
  }
}

/** "Approved by you", "Allowed by policy", "Denied from the command line"; null before anyone decided. */
export function decidedByLabel(call: Pick<ToolCall, 'decision' | 'decidedBy' | 'state'>): string | null {
  // An expired call was never decided by anyone; the Host records it as refused, which would read oddly.
  if (call.state === 'expired') return null;
  if (call.decision === null && call.decidedBy === null) return null;
  const what = call.decision ? decisionWords(call.decision) : 'decided';
  const who =
    call.decidedBy === 'user'
      ? ' by you'
      : call.decidedBy === 'cli'
        ? ' from the command line'
        : call.decidedBy === 'policy' && call.decision !== 'auto'
          ? ' by policy'
          : '';
  const text = `${what}${who}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A one-line summary of a result: the text itself, a count for lists, otherwise compact JSON; cut at `max`. */
/** A result as data, whole (up to `max` characters), for the card's "the result as the assistant read it". */
export function rawResult(result: unknown, max = 20_000): string | null {
  if (result === null || result === undefined) return null;
  let text: string;
  try {
    text = typeof result === 'string' ? result : (JSON.stringify(result, null, 2) ?? String(result));
  } catch {
    text = String(result);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function summarizeResult(result: unknown, max = 160): string | null {
  if (result === null || result === undefined) return null;
  let text: string;
  if (typeof result === 'string') text = result;
  else if (Array.isArray(result)) text = `${result.length} ${result.length === 1 ? 'item' : 'items'}`;
  else {
    try {
      text = JSON.stringify(result) ?? String(result);
    } catch {
      text = String(result);
    }
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** "Homebody read content it did not get from you before this: a, b"; null when nothing untrusted was read. */
export function taintWarning(taint: readonly string[]): string | null {
  if (taint.length === 0) return null;
  return `Homebody read content it did not get from you before this: ${taint.join(', ')}`;
}

/** Parses the edited arguments of a call: an object, or the reason it is not one. */
export function parseArgsJson(
  text: string,
): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `The arguments are not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, error: 'The arguments must be a JSON object, like {"path": "…"}.' };
  return { ok: true, args: value as Record<string, unknown> };
}

/** A prompt in the chat that waits for the user. */
export function isPrompt(call: Pick<ToolCall, 'gate' | 'state'>): boolean {
  return call.gate === 'prompt' && call.state === 'pending';
}

export function actorLabel(actor: 'model' | 'user' | 'policy' | 'cli' | 'system'): string {
  switch (actor) {
    case 'model':
      return 'Homebody';
    case 'user':
      return 'You';
    case 'policy':
      return 'Policy';
    case 'cli':
      return 'Command line';
    case 'system':
      return 'System';
    default:
      return actor satisfies never;
  }
}

/** A local date and time with seconds, e.g. "30 Nov 2026, 06:40:12". */
export function formatAuditTime(at: number): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  return date.toLocaleString(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}
