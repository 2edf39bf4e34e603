import type { ExportedTask, Message, ToolCall } from '../../src-shared/contract/index.js';

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString().replace('.000Z', 'Z'));

/** A fence longer than any run of backticks inside, so no content can close it early. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/gu)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

const DECIDED: Record<NonNullable<ToolCall['decision']>, string> = {
  auto: 'ran by policy',
  'allow-once': 'allowed once',
  'allow-task': 'allowed for this task',
  always: 'always allowed',
  approve: 'approved',
  deny: 'denied',
};

function messageBlock(m: Message): string {
  const who = m.role === 'user' ? 'You' : 'Homebody';
  const facts = [iso(m.createdAt)];
  // A reply another computer wrote says so wherever it is read.
  if (m.remote) facts.push(`written on another computer: ${m.remote.model} at ${m.remote.label} (${m.remote.url})`);
  if (m.state !== 'complete') facts.push(m.state);
  if (m.stats) {
    facts.push(`${m.stats.promptTokens} prompt + ${m.stats.completionTokens} reply tokens`);
    if (m.stats.tokensPerSecond !== null) facts.push(`${m.stats.tokensPerSecond.toFixed(1)} tokens/s`);
  }
  const lines = [`### ${who}`, '', `_${facts.join(' · ')}_`, '', m.text.trim() === '' ? '_(no text)_' : m.text];
  if (m.error) lines.push('', `> ${m.error.replaceAll('\n', '\n> ')}`);
  return lines.join('\n');
}

function callBlock(c: ToolCall): string {
  const decision = c.decision ? `${DECIDED[c.decision]}${c.decidedBy ? ` by ${c.decidedBy}` : ''}` : 'no decision';
  const facts = [`${c.risk}`, c.state, decision];
  if (c.undo) facts.push(`undo: ${c.undo}`);
  if (c.startedAt !== null && c.finishedAt !== null) facts.push(`${c.finishedAt - c.startedAt} ms`);
  const lines = [`### Tool call: ${c.description.title || c.tool}`, '', `_\`${c.tool}\` · ${facts.join(' · ')}_`];
  if (c.reason) lines.push('', `Reason: ${c.reason}`);
  lines.push('', 'Arguments:', '', fenced(JSON.stringify(c.args, null, 2), 'json'));
  if (c.result !== null && c.result !== undefined) {
    const result = typeof c.result === 'string' ? c.result : JSON.stringify(c.result, null, 2);
    lines.push('', 'Result:', '', fenced(result, typeof c.result === 'string' ? '' : 'json'));
  }
  if (c.error) lines.push('', `Error: ${c.error}`);
  return lines.join('\n');
}

/** Messages and tool calls of one task in the order they happened: a call belongs after the reply it began in. */
export function timelineOf(task: Pick<ExportedTask, 'messages' | 'toolCalls'>): Array<Message | ToolCall> {
  const items: Array<{ at: number; order: number; item: Message | ToolCall }> = [
    ...task.messages.map((m) => ({ at: m.createdAt, order: 0, item: m })),
    ...task.toolCalls.map((c) => ({ at: c.createdAt, order: 1, item: c })),
  ];
  return items.sort((a, b) => a.at - b.at || a.order - b.order).map((i) => i.item);
}

/** A readable Markdown document of the tasks, for reading or sharing; JSON is the format to import back. */
export function toMarkdown(tasks: readonly ExportedTask[], exportedAt: number): string {
  const parts = [`# Homebody history`, '', `Exported ${iso(exportedAt)} · ${tasks.length} task(s)`];
  for (const t of tasks) {
    parts.push(
      '',
      `## ${t.task.title || 'Untitled task'}`,
      '',
      `_Task ${t.task.id} · ${t.task.status} · started ${iso(t.task.createdAt)} · last activity ${iso(t.task.updatedAt)}_`,
    );
    for (const item of timelineOf(t)) parts.push('', 'role' in item ? messageBlock(item) : callBlock(item));
  }
  return `${parts.join('\n')}\n`;
}
