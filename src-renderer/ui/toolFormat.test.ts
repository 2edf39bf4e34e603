import { describe, expect, it } from 'vitest';
import { ToolTouchesSchema } from '../../src-shared/contract/index.js';
import { makeToolCall } from '../testing/testFixtures.js';
import {
  decidedByLabel,
  isPrompt,
  parseArgsJson,
  riskLabel,
  summarizeResult,
  taintWarning,
  toolBadge,
  toolCallStateLabel,
} from './toolFormat.js';
import { policyModeFor } from '../features/settings/policyView.js';

describe('toolCallStateLabel', () => {
  it('names each state', () => {
    expect(toolCallStateLabel(makeToolCall({ state: 'pending', gate: 'prompt' }))).toBe('Waiting for you');
    expect(toolCallStateLabel(makeToolCall({ state: 'pending', gate: 'queue' }))).toBe('Waiting for you in Approvals');
    expect(toolCallStateLabel(makeToolCall({ state: 'executing' }))).toBe('Running');
    expect(toolCallStateLabel(makeToolCall({ state: 'approved' }))).toBe('Running');
    expect(toolCallStateLabel(makeToolCall({ state: 'done' }))).toBe('Done');
    expect(toolCallStateLabel(makeToolCall({ state: 'failed', error: 'No such file' }))).toBe('Failed: No such file');
    expect(toolCallStateLabel(makeToolCall({ state: 'denied' }))).toBe('Denied');
    expect(toolCallStateLabel(makeToolCall({ state: 'interrupted' }))).toBe('Stopped: Homebody closed while it ran');
    expect(toolCallStateLabel(makeToolCall({ state: 'expired' }))).toBe('Not run: no answer');
  });
});

describe('toolBadge', () => {
  it('says what a tool touches, not only its risk', () => {
    expect(toolBadge('write', 'files')).toBe('Changes files');
    expect(toolBadge('write', 'calendar')).toBe('Changes your calendar');
    expect(toolBadge('write', 'reminders')).toBe('Changes your reminders');
    // The clipboard, opening an address, a notification: no file changes.
    expect(toolBadge('write', 'device')).toBe('Uses your device');
    expect(toolBadge('read', 'files')).toBe('Reads files');
    expect(toolBadge('read', 'calendar')).toBe('Reads your calendar');
    expect(toolBadge('read', 'web')).toBe('Reads the web');
    expect(toolBadge('read', 'nothing')).toBe('Touches nothing');
  });

  it('says "Cannot be undone" for an irreversible tool, whatever it touches', () => {
    expect(toolBadge('irreversible', 'mail')).toBe('Cannot be undone');
    expect(toolBadge('irreversible', 'files')).toBe('Cannot be undone');
  });

  it('falls back to the risk alone where what a tool touches is not known (an MCP tool)', () => {
    expect(toolBadge('write', null)).toBe('Changes things');
    expect(toolBadge('read', null)).toBe('Reads');
    expect(toolBadge('irreversible', null)).toBe('Cannot be undone');
    expect(riskLabel('write')).toBe('Changes things');
  });

  it('says "Changes files" only of what touches files', () => {
    for (const touches of ToolTouchesSchema.options) {
      for (const risk of ['read', 'write'] as const) {
        const badge = toolBadge(risk, touches);
        if (touches !== 'files') expect(badge, `${risk} ${touches}`).not.toMatch(/files/);
      }
    }
  });
});

describe('decidedByLabel', () => {
  it('says who decided what', () => {
    expect(decidedByLabel(makeToolCall())).toBeNull();
    expect(decidedByLabel(makeToolCall({ state: 'expired', decision: 'deny', decidedBy: 'policy' }))).toBeNull();
    expect(decidedByLabel(makeToolCall({ decision: 'auto', decidedBy: 'policy' }))).toBe('Allowed by policy');
    expect(decidedByLabel(makeToolCall({ decision: 'approve', decidedBy: 'user' }))).toBe('Approved by you');
    expect(decidedByLabel(makeToolCall({ decision: 'deny', decidedBy: 'cli' }))).toBe('Denied from the command line');
    expect(decidedByLabel(makeToolCall({ decision: 'allow-task', decidedBy: 'user' }))).toBe(
      'Allowed for this task by you',
    );
  });
});

describe('summarizeResult', () => {
  it('shortens results to one line', () => {
    expect(summarizeResult(null)).toBeNull();
    expect(summarizeResult('a\n  b')).toBe('a b');
    expect(summarizeResult([1, 2])).toBe('2 items');
    expect(summarizeResult({ ok: true })).toBe('{"ok":true}');
    expect(summarizeResult('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('helpers', () => {
  it('taintWarning names the untrusted sources', () => {
    expect(taintWarning([])).toBeNull();
    expect(taintWarning(['a.txt', 'b.html'])).toBe(
      'Homebody read content it did not get from you before this: a.txt, b.html',
    );
  });

  it('parseArgsJson accepts objects only', () => {
    expect(parseArgsJson('{"path":"/x"}')).toEqual({ ok: true, args: { path: '/x' } });
    const bad = parseArgsJson('{path');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/not valid JSON/);
    expect(parseArgsJson('[1]')).toEqual({ ok: false, error: expect.stringMatching(/JSON object/) });
  });

  it('isPrompt and policyModeFor', () => {
    expect(isPrompt(makeToolCall({ gate: 'prompt', state: 'pending' }))).toBe(true);
    expect(isPrompt(makeToolCall({ gate: 'queue', state: 'pending' }))).toBe(false);
    expect(policyModeFor(null, { name: 'delete_permanently', risk: 'irreversible' })).toBe('queue');
    expect(
      policyModeFor({ version: 1, tools: { list_folder: 'auto' }, folders: [] }, { name: 'list_folder', risk: 'read' }),
    ).toBe('auto');
  });
});
