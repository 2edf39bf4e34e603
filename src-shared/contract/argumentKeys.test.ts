import { describe, expect, it } from 'vitest';
import { apiSchemas } from './api.js';
import { findReservedKey } from './argumentKeys.js';

const approve = apiSchemas['approvals.approve'].request;

// Requests arrive as JSON text (browser mode's HTTP body, Electron's IPC payload after JSON), so the cases are text.
describe('reserved keys in tool arguments', () => {
  it.each([
    ['{"__proto__": {"path": "/etc/passwd"}}', ['__proto__']],
    ['{"path": "a", "filter": {"__proto__": {"x": 1}}}', ['filter', '__proto__']],
    ['{"items": [1, {"ok": true}, {"prototype": 2}]}', ['items', 2, 'prototype']],
    ['{"extra": {"constructor": {"prototype": {}}}}', ['extra', 'constructor']],
    ['{"path": "a", "nested": {"deep": [[{"ok": "__proto__"}]]}}', null],
  ])('finds the first one in %s', (json, path) => {
    expect(findReservedKey(JSON.parse(json))).toEqual(path);
  });

  it('walks a value nested 50,000 deep without overflowing the stack', () => {
    let deep: unknown = JSON.parse('{"__proto__": 1}');
    for (let i = 0; i < 50_000; i++) deep = { x: deep };
    expect(findReservedKey(deep)).toHaveLength(50_001);
    expect(findReservedKey({ x: [[[{ y: 1 }]]] })).toBeNull();
  });

  it.each([
    ['{"__proto__": {"path": "/etc/passwd"}, "path": "a.txt"}', 'args.__proto__'],
    ['{"path": "a.txt", "filter": {"__proto__": {"x": 1}}}', 'args.filter.__proto__'],
    ['{"to": ["a@example.org", {"constructor": 1}]}', 'args.to.1.constructor'],
  ])('an approval with edited arguments %s is refused, naming the key and its place', (json, where) => {
    const parsed = approve.safeParse(JSON.parse(`{"ids": ["c1"], "args": ${json}}`));
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues[0];
    expect(issue?.path.map(String).join('.')).toBe(where);
    expect(issue?.message).toMatch(/^"(__proto__|constructor|prototype)" is not allowed as a key in tool arguments$/);
  });

  it('lets ordinary edited arguments through as they were sent', () => {
    const parsed = approve.safeParse(JSON.parse('{"ids": ["c1"], "args": {"path": "a.txt", "n": [1, {"k": null}]}}'));
    expect(parsed).toEqual({ success: true, data: { ids: ['c1'], args: { path: 'a.txt', n: [1, { k: null }] } } });
    expect(approve.safeParse({ ids: ['c1'], args: 'a.txt' }).success).toBe(false);
    expect(approve.safeParse({ ids: ['c1'] }).success).toBe(true);
  });
});
