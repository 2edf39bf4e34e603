import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Policy } from '../../../src-shared/contract/index.js';
import { emptyPolicy } from '../../permissions/policy.js';
import { openStore, type Store } from '../../store/store.js';
import { testPackConfig } from '../../testing/tools/packFixture.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { ToolRunner } from '../../tools/sandbox/toolExecutor.js';
import type { ToolDefinition } from '../../tools/toolTypes.js';
import type { Caller } from '../handlers.js';
import { createToolsService } from './toolsService.js';

function tool(name: string, risk: ToolDefinition['risk']): ToolDefinition {
  return {
    name,
    description: `${name} a file`,
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', maxLength: 200 } },
      required: ['path'],
      additionalProperties: false,
    },
    risk,
    describe: (args) => ({ title: name, summary: `${name} ${String(args.path)}`, details: [] }),
    run: () => Promise.reject(new Error('runs in the worker only')),
  };
}

/** The tools service as one Host builds it, over an in-memory store and a worker stand-in that records its runs. */
function setup(caller: Caller, modes: Policy['tools'] = {}, existing?: Store) {
  const store = existing ?? openStore(':memory:');
  if (!existing) store.tasks.create({ id: 't', title: 'task', now: 1 });
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'hb-tools-service-')));
  let policy: Policy = { ...emptyPolicy(), tools: modes, folders: [{ path: folder, untrusted: false }] };
  const ran: string[] = [];
  const worker: ToolRunner = {
    trashDir: join(folder, '.trash'),
    run: async (name, args) => {
      ran.push(name);
      return { result: `${name} ran on ${String(args.path)}` };
    },
    undo: () => Promise.reject(new Error('no undo here')),
    dispose: async () => {},
  };
  let serversUp = false;
  const service = createToolsService({
    store,
    registry: new ToolRegistry([tool('read_text', 'read'), tool('send_now', 'irreversible')]),
    worker,
    mcp: {
      runner: (runner) => runner,
      ready: async () => {
        serversUp = true;
      },
    },
    policies: {
      current: () => policy,
      saveQuietly: (next) => {
        policy = next;
      },
    },
    packs: { settings: { config: () => testPackConfig(join(folder, '.packs')) } },
    evaluation: { gateOpen: () => false },
    emit: () => {},
    dataDir: join(folder, '.data'),
    caller,
  });
  const path = join(folder, 'notes.txt');
  return { store, service, handlers: service.handlers, ran, path, serversUp: () => serversUp };
}

describe('tools.call (homebody tools call)', () => {
  it('runs a call the policy allows once the MCP servers are up, and audits it as the command line’s', async () => {
    const { handlers, store, ran, path, serversUp } = setup('cli', { read_text: 'auto' });
    const outcome = await handlers['tools.call']({ tool: 'read_text', args: { path }, taskId: 't' });
    expect(serversUp()).toBe(true);
    expect(outcome).toMatchObject({ status: 'done', result: `read_text ran on ${path}`, call: { state: 'done' } });
    expect(ran).toEqual(['read_text']);
    expect(store.audit.forTask('t').find((e) => e.kind === 'proposed')?.actor).toBe('cli');
  });

  it('answers needs-permission for a call no one can be asked about, and a refusal as an outcome', async () => {
    const { handlers, ran, path } = setup('cli');
    expect(await handlers['tools.call']({ tool: 'read_text', args: { path } })).toMatchObject({
      status: 'needs-permission',
      call: { gate: 'prompt' },
    });
    expect(await handlers['tools.call']({ tool: 'read_text', args: { path, extra: 1 } })).toEqual({
      status: 'rejected',
      error: expect.stringMatching(/^Invalid arguments for read_text/),
      call: null,
    });
    expect(ran).toEqual([]);
  });

  it('refuses a task that does not exist, and any call from the app’s Host', async () => {
    const { handlers, path } = setup('cli');
    await expect(handlers['tools.call']({ tool: 'read_text', args: { path }, taskId: 'gone' })).rejects.toThrow(
      'There is no task gone; it may have been deleted.',
    );
    const app = setup('user', { read_text: 'auto' });
    await expect(app.handlers['tools.call']({ tool: 'read_text', args: { path } })).rejects.toThrow(
      /the assistant proposes tool calls/,
    );
    expect(app.ran).toEqual([]);
  });
});

describe('approvals, as the app and the command line decide them', () => {
  it('answers each decided call with what became of it, and runs an approved one once', async () => {
    const { handlers, ran, path, store } = setup('cli');
    const queued = await handlers['tools.call']({ tool: 'send_now', args: { path } });
    expect(queued.status).toBe('queued');
    const id = queued.call!.id;
    const approved = await handlers['approvals.approve']({ ids: [id] });
    expect(approved.calls.map((c) => c.state)).toEqual(['done']);
    expect(approved.outcomes).toEqual([{ status: 'done', result: `send_now ran on ${path}` }]);
    expect(store.toolCalls.get(id)?.basis).toEqual({ kind: 'cli', answer: 'approve' });
    const again = await handlers['approvals.approve']({ ids: [id] });
    expect(again.outcomes).toEqual([{ status: 'denied', error: expect.stringMatching(/already decided/) }]);
    expect(ran).toEqual(['send_now']);
  });

  it('records the user as the one deciding through the app’s Host', async () => {
    const cli = setup('cli');
    const queued = await cli.handlers['tools.call']({ tool: 'send_now', args: { path: cli.path } });
    // The same data folder, opened by the app: its decisions are the user's.
    const app = setup('user', {}, cli.store);
    const denied = await app.handlers['approvals.deny']({ ids: [queued.call!.id], reason: 'not now' });
    expect(denied.outcomes).toEqual([{ status: 'denied', error: 'The user denied this call: not now' }]);
    expect(denied.calls[0]).toMatchObject({ state: 'denied', basis: { kind: 'user', answer: 'deny' } });
    expect(cli.ran).toEqual([]);
  });
});
