import { describe, expect, it } from 'vitest';
import { ToolInfoSchema } from '../../../src-shared/contract/index.js';
import { ToolRegistry } from '../registry.js';
import type { ToolDefinition } from '../toolTypes.js';
import { FILE_TOOLS } from './files/index.js';
import { BUILTIN_TOOLS } from './index.js';

/** Every property name in a JSON Schema, at any depth: the names the model fills in. */
function propertyNames(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  if (Array.isArray(schema)) return schema.flatMap(propertyNames);
  const record = schema as Record<string, unknown>;
  const properties = record.properties;
  const own =
    typeof properties === 'object' && properties !== null ? Object.keys(properties as Record<string, unknown>) : [];
  return [...own, ...Object.values(record).flatMap(propertyNames)];
}

/**
 * The names only a model or a programmer writes: tool names (web_search) and argument names such as maxBytes or
 * inReplyTo. Plain words that are argument names too (path, title, to) may appear in a sentence for people.
 */
const CODE_NAMES = [
  ...new Set([...BUILTIN_TOOLS.map((t) => t.name), ...BUILTIN_TOOLS.flatMap((t) => propertyNames(t.parameters))]),
].filter((name) => /[A-Z_0-9]/.test(name));

/** What the descriptions for the model say that people should never read. */
const MODEL_TEXT = [
  /["'`]\.["'`]/, // 'Use "." for the first granted folder'
  /["`{}[\]]/, // quoted values, JSON, code
  /\bJSON\b/i,
  /\bthe user\b/i,
  /\buser's\b/i,
  /\bthe model\b/i,
  /\bid\b/i,
  /\be\.g\./i,
  /\b(true|false|null)\b/,
  /\bUTF-8\b/,
  /\bIMAP\b|\bSMTP\b/,
];

const byName = (name: string) => BUILTIN_TOOLS.find((t) => t.name === name);

describe('what people read about the built-in tools', () => {
  it.each(BUILTIN_TOOLS.map((t) => [t.name, t] as const))('%s has a short title and one sentence', (_name, tool) => {
    const { title, text } = tool.forPeople;
    expect(title).toMatch(/^[A-Z]/);
    expect(title).not.toMatch(/[.:;!?]$/);
    expect(title.length).toBeLessThanOrEqual(40);
    expect(text).toMatch(/^[A-Z].*\.$/);
    expect(text.length).toBeLessThanOrEqual(140);
    // One sentence: nothing ends one before the last full stop.
    expect(text.slice(0, -1)).not.toMatch(/[.!?](\s|$)/);
    expect(text).not.toBe(tool.description);
  });

  it('never says what is written for the model: no quoted values, JSON, tool or argument names, "the user"', () => {
    expect(CODE_NAMES).toEqual(expect.arrayContaining(['maxBytes', 'inReplyTo', 'web_search']));
    for (const tool of BUILTIN_TOOLS) {
      for (const words of [tool.forPeople.title, tool.forPeople.text]) {
        for (const pattern of MODEL_TEXT) expect(words, `${tool.name}: ${words}`).not.toMatch(pattern);
        for (const name of CODE_NAMES) expect(words, `${tool.name}: ${words}`).not.toContain(name);
      }
    }
  });

  it('gives every tool a title of its own', () => {
    const titles = BUILTIN_TOOLS.map((t) => t.forPeople.title);
    expect(new Set(titles).size).toBe(titles.length);
  });
});

describe('what the built-in tools touch', () => {
  it('badges the clipboard, opening and notifications as the device, never as changing files', () => {
    for (const name of ['clipboard_read', 'clipboard_write', 'device_open', 'device_notify', 'device_status'])
      expect(byName(name)?.touches, name).toBe('device');
    // Only the file tools touch files (device_open has a path, but opens it in another app).
    expect(BUILTIN_TOOLS.filter((t) => t.touches === 'files').map((t) => t.name)).toEqual(
      FILE_TOOLS.map((t) => t.name),
    );
  });

  it('says each pack touches its own things', () => {
    const touches = Object.fromEntries(BUILTIN_TOOLS.map((t) => [t.name, t.touches]));
    expect(touches).toMatchObject({
      calendar_add: 'calendar',
      calendar_events: 'calendar',
      contact_add: 'contacts',
      note_write: 'notes',
      reminder_add: 'reminders',
      mail_draft: 'mail',
      mail_send: 'mail',
      web_fetch: 'web',
      web_search: 'web',
      calculate: 'nothing',
      date_calc: 'nothing',
    });
  });

  it('keeps what a tool touches consistent with what it does', () => {
    for (const tool of BUILTIN_TOOLS) {
      // A tool that touches nothing only works something out: it reads, offline, on no path.
      if (tool.touches === 'nothing') {
        expect(tool.risk, tool.name).toBe('read');
        expect(tool.needsNetwork ?? false, tool.name).toBe(false);
        expect(tool.pathArgs, tool.name).toBeUndefined();
      }
      if (tool.touches === 'web') expect(tool.needsNetwork, tool.name).toBe(true);
    }
  });
});

describe('tools.list', () => {
  it('gives the words for people and what each tool touches, beside the description for the model', () => {
    const info = new ToolRegistry().info();
    for (const item of info) expect(ToolInfoSchema.safeParse(item).success, item.name).toBe(true);
    expect(info.find((t) => t.name === 'clipboard_write')).toMatchObject({
      title: 'Copy to the clipboard',
      text: 'Puts text on the clipboard, for you to paste elsewhere.',
      touches: 'device',
      risk: 'write',
      description: byName('clipboard_write')?.description,
    });
    expect(info.find((t) => t.name === 'write_text')).toMatchObject({ title: 'Write a text file', touches: 'files' });
  });

  it('shows a tool without words for people by its name and description, touching what is not known', () => {
    const bare: ToolDefinition = {
      name: 'bare',
      description: 'A bare tool.',
      parameters: { type: 'object', properties: {} },
      risk: 'write',
      describe: () => ({ title: 'bare', summary: 'bare', details: [] }),
      run: async () => ({ result: null }),
    };
    expect(new ToolRegistry([bare]).info()[0]).toMatchObject({
      title: 'bare',
      text: 'A bare tool.',
      touches: null,
    });
  });
});
