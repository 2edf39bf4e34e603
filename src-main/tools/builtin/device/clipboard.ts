import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { objectSchema } from '../files/common.js';
import { clipboardText } from './deviceAnswers.js';
import { asCount, plural, summarizer } from '../summaryText.js';

const MAX_CLIPBOARD = 100_000;
const PREVIEW_CHARS = 300;

export const clipboardRead: BuiltinToolDefinition<Record<string, never>> = {
  name: 'clipboard_read',
  description: 'Read the text currently on the clipboard (what the user copied).',
  parameters: objectSchema({}, []),
  risk: 'read',
  touches: 'device',
  forPeople: { title: 'Read the clipboard', text: 'Reads the text you last copied.' },
  untrustedOutput: { what: 'the clipboard', always: true },
  describe() {
    return { title: 'Read the clipboard', summary: 'Read the text you last copied.', details: [] };
  },
  summarize: summarizer<Record<string, never>>((r) => {
    if (typeof r.text !== 'string') return null;
    if (r.text === '') return 'The clipboard holds no text.';
    const first = r.truncated === true ? 'the first ' : '';
    return `Read ${first}${plural(r.text.length, 'character')} from the clipboard.`;
  }),
  async run(_args, ctx) {
    const text = clipboardText(await ctx.services.device({ kind: 'clipboard-read' }));
    const cut = text.length > MAX_CLIPBOARD;
    return {
      result: { text: cut ? text.slice(0, MAX_CLIPBOARD) : text, ...(cut ? { truncated: true } : {}) },
      // Whatever was copied may come from any page or document, so it taints the task like a web page would.
      untrustedSource: 'the clipboard',
    };
  },
};

export type ClipboardWriteArgs = { text: string };

export const clipboardWrite: BuiltinToolDefinition<ClipboardWriteArgs> = {
  name: 'clipboard_write',
  description: 'Copy text to the clipboard, so the user can paste it elsewhere.',
  parameters: objectSchema(
    { text: { type: 'string', minLength: 1, maxLength: MAX_CLIPBOARD, description: 'The text to copy.' } },
    ['text'],
  ),
  risk: 'write',
  touches: 'device',
  forPeople: { title: 'Copy to the clipboard', text: 'Puts text on the clipboard, for you to paste elsewhere.' },
  describe(args) {
    const text = typeof args.text === 'string' ? args.text : '';
    return {
      title: 'Copy to the clipboard',
      summary: `Replace the clipboard's content with ${text.length} characters.`,
      details: [{ label: 'Text', value: text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text }],
    };
  },
  summarize: summarizer<ClipboardWriteArgs>((r) => {
    const copied = asCount(r.copied);
    return copied !== undefined ? `Copied ${plural(copied, 'character')} to the clipboard.` : null;
  }),
  async run(args, ctx) {
    await ctx.services.device({ kind: 'clipboard-write', text: args.text });
    return { result: { copied: args.text.length } };
  },
};
