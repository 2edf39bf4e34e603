import { describe, expect, it } from 'vitest';
import { argumentFields, argumentLabel, withArgument } from './argumentFields.js';

describe('argument fields of a queued call', () => {
  it('offers each string argument as a field, long or multi-line ones as a box', () => {
    const args = {
      to: 'ana@example.org',
      subject: 'Late',
      body: 'Hi Ana,\nrunning late.',
      inReplyTo: '<a@b>',
      count: 3,
      flags: ['x'],
    };
    expect(argumentFields(args)).toEqual([
      { name: 'to', label: 'To', value: 'ana@example.org', multiline: false },
      { name: 'subject', label: 'Subject', value: 'Late', multiline: false },
      { name: 'body', label: 'Body', value: 'Hi Ana,\nrunning late.', multiline: true },
      { name: 'inReplyTo', label: 'In reply to', value: '<a@b>', multiline: false },
    ]);
    expect(argumentFields({ path: 'x'.repeat(81) })[0]?.multiline).toBe(true);
  });

  it('labels snake_case and camelCase names in words', () => {
    expect(argumentLabel('due_date')).toBe('Due date');
    expect(argumentLabel('searchEndpoint')).toBe('Search endpoint');
  });

  it('offers no field for a key that cannot be an argument, wherever the JSON put it', () => {
    // As the JSON box's text parses: "__proto__" is an own key, which a field would show and no tool would run with.
    const args = JSON.parse(
      '{"__proto__": "/etc/passwd", "constructor": "x", "prototype": "y", "path": "/home/me/a.txt"}',
    ) as Record<string, unknown>;
    expect(argumentFields(args).map((f) => f.name)).toEqual(['path']);
  });

  it('keeps a reserved key the JSON holds as a key in the text, so the Host refuses it rather than losing it', () => {
    const args = JSON.parse('{"__proto__": {"path": "/etc/passwd"}, "path": "a.txt"}') as Record<string, unknown>;
    const text = withArgument(args, 'path', 'b.txt');
    expect(text).toContain('"__proto__"');
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['__proto__', 'path']);
  });

  it('rewrites only the edited key and keeps the other arguments as they were', () => {
    const text = withArgument({ to: 'a@example.org', subject: 'Late', count: 3 }, 'subject', 'Very late');
    expect(JSON.parse(text)).toEqual({ to: 'a@example.org', subject: 'Very late', count: 3 });
  });
});
