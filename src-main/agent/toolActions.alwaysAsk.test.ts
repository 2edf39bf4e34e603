import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Policy } from '../../src-shared/contract/index.js';
import { emptyPolicy } from '../permissions/policy.js';
import { openStore } from '../store/store.js';
import { testPackConfig } from '../testing/tools/packFixture.js';
import { ToolRegistry } from '../tools/registry.js';
import type { ToolRunner } from '../tools/sandbox/toolExecutor.js';
import type { ToolDefinition } from '../tools/toolTypes.js';
import { ToolActions } from './toolActions.js';

const opener: ToolDefinition = {
  name: 'device_open',
  description: 'Open a file or address',
  parameters: {
    type: 'object',
    properties: { target: { type: 'string' } },
    required: ['target'],
    additionalProperties: false,
  },
  risk: 'write',
  alwaysAsk: true,
  describe: (args) => ({ title: 'Open', summary: `Open ${String(args.target)}`, details: [] }),
  run: () => Promise.reject(new Error('runs in the worker only')),
};

function setup(initial: Partial<Policy> = {}) {
  const store = openStore(':memory:');
  store.tasks.create({ id: 't', title: 'task', now: 1 });
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'hb-always-')));
  let policy: Policy = { ...emptyPolicy(), ...initial };
  const ran: string[] = [];
  const runner: ToolRunner = {
    trashDir: join(folder, 'trash'),
    run: async (_name, args) => {
      ran.push(String(args.target));
      return { result: 'opened' };
    },
    undo: async () => ({ result: 'undone' }),
    dispose: async () => undefined,
  };
  const actions = new ToolActions({
    store,
    registry: new ToolRegistry([opener]),
    executor: runner,
    policy: () => policy,
    packs: () => testPackConfig(join(folder, 'packs')),
    savePolicy: (next) => (policy = next),
    emit: () => undefined,
  });
  const propose = (target: string) =>
    actions.propose({ taskId: 't', tool: 'device_open', args: { target }, actor: 'model', interactive: true });
  return { actions, propose, ran, policy: () => policy };
}

describe('ToolActions with a tool that always asks', () => {
  it('asks again after "allow for this task", each time showing the target', async () => {
    const { actions, propose, ran } = setup();
    const first = await propose('https://example.org/one');
    expect(first.status).toBe('needs-permission');
    await actions.answerPrompt(first.call!.id, 'allow-task');
    const second = await propose('https://example.org/two');
    expect(second).toMatchObject({
      status: 'needs-permission',
      call: { description: { summary: 'Open https://example.org/two' } },
    });
    expect(ran).toEqual(['https://example.org/one']);
  });

  it('refuses "always allow" and asks even when a stored policy says auto', async () => {
    const { actions, propose, ran, policy } = setup({ tools: { device_open: 'auto' } });
    const call = await propose('https://example.org');
    expect(call.status).toBe('needs-permission');
    await expect(actions.answerPrompt(call.call!.id, 'always')).rejects.toThrow(/always asks first/);
    expect(ran).toEqual([]);
    expect(policy().tools.device_open).toBe('auto');
  });
});
