import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore } from '../store/store.js';
import { runCli } from '../testing/cliProcess.js';
import type { ToolCallJson } from './toolsCommand.js';

const homebody = runCli;

async function call(dataDir: string, tool: string, args: unknown): Promise<ToolCallJson & { code: number }> {
  const out = await homebody(dataDir, 'tools', 'call', tool, JSON.stringify(args), '--json');
  return { ...(JSON.parse(out.stdout) as ToolCallJson), code: out.code };
}

const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-tools-cli-')));
const dataDir = join(work, 'data');
const reports = join(work, 'Reports');
const sibling = join(work, 'Reports2');
const outside = join(work, 'private');
for (const dir of [reports, sibling, outside]) mkdirSync(dir);
writeFileSync(join(reports, 'draft.txt'), 'draft');
writeFileSync(join(reports, 'tmp.log'), 'log');
writeFileSync(join(reports, 'old.log'), 'old');
writeFileSync(join(reports, 'big.txt'), 'x'.repeat(3 * 1024 * 1024));
writeFileSync(join(sibling, 'secret.txt'), 'sibling secret');
writeFileSync(join(outside, 'secret.txt'), 'outside secret');
symlinkSync(join(outside, 'secret.txt'), join(reports, 'link.txt'));
symlinkSync(outside, join(reports, 'linked-folder'));

beforeAll(async () => {
  expect((await homebody(dataDir, 'policy', 'grant', reports)).code).toBe(0);
});

describe('homebody tools, approvals and policy', () => {
  it('lists the tools with their risk and JSON Schema', async () => {
    const out = await homebody(dataDir, 'tools', 'list', '--json');
    const tools = JSON.parse(out.stdout) as Array<{ name: string; risk: string; parameters: { type: string } }>;
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName)).toEqual(
      expect.arrayContaining([
        'list_folder',
        'search_files',
        'read_text',
        'write_text',
        'move',
        'copy',
        'trash',
        'delete_permanently',
      ]),
    );
    expect(byName.read_text?.risk).toBe('read');
    expect(byName.move?.risk).toBe('write');
    expect(byName.delete_permanently?.risk).toBe('irreversible');
    expect(byName.move?.parameters.type).toBe('object');
  });

  it('does not run a call that needs a prompt, until the policy says auto', async () => {
    expect(await call(dataDir, 'list_folder', { path: reports })).toMatchObject({
      status: 'needs-permission',
      code: 1,
      // It says how to allow it.
      error: expect.stringMatching(
        /no one can be asked here\. To let it run without asking: homebody policy set list_folder auto$/,
      ),
    });
    expect((await homebody(dataDir, 'policy', 'set', 'read_text', 'auto')).code).toBe(0);
    expect((await homebody(dataDir, 'policy', 'set', 'list_folder', 'auto')).code).toBe(0);
    const listed = await call(dataDir, 'list_folder', { path: reports });
    expect(listed.status).toBe('done');
    expect(JSON.stringify(listed.result)).toContain('draft.txt');
    // Without --json: the line for people on stderr, the result as data on stdout.
    const human = await homebody(dataDir, 'tools', 'call', 'list_folder', JSON.stringify({ path: reports }));
    expect(human.stderr).toMatch(/^Done: .*Reports.*draft\.txt/m);
    expect(JSON.parse(human.stdout)).toMatchObject({ folder: reports });
  });

  it('refuses every way out of the granted folder, reading and changing nothing outside', async () => {
    const attempts: Array<[unknown, RegExp]> = [
      [{ path: join(reports, '..', 'private', 'secret.txt') }, /outside|granted/i],
      [{ path: join(outside, 'secret.txt') }, /outside|granted/i],
      [{ path: join(reports, 'link.txt') }, /outside|granted/i],
      [{ path: join(reports, 'linked-folder', 'secret.txt') }, /outside|granted/i],
      [{ path: join(sibling, 'secret.txt') }, /outside|granted/i],
      [{ path: `${reports}/draft.txt\u0000.png` }, /NUL|invalid/i],
      [{ path: join(reports, 'big.txt') }, /too large|bytes/i],
      [{ path: 'draft.txt', extra: true }, /Invalid arguments|extra/i],
    ];
    for (const [args, message] of attempts) {
      const result = await call(dataDir, 'read_text', args);
      expect(result.status, JSON.stringify(args)).toBe('failed');
      expect(result.error).toMatch(message);
      expect(JSON.stringify(result)).not.toMatch(/outside secret|sibling secret/);
    }
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside secret');
    expect(await call(dataDir, 'no_such_tool', {})).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/no tool named/),
    });
  });

  it('queues a permanent delete; approved once it runs once; approving again does nothing', async () => {
    const queued = await call(dataDir, 'delete_permanently', { path: join(reports, 'tmp.log') });
    expect(queued).toMatchObject({ status: 'queued', code: 0 });
    expect(existsSync(join(reports, 'tmp.log'))).toBe(true);
    const list = JSON.parse((await homebody(dataDir, 'approvals', 'list', '--json')).stdout) as Array<{ id: string }>;
    expect(list.map((c) => c.id)).toContain(queued.approvalId);

    const approved = await homebody(dataDir, 'approvals', 'approve', queued.approvalId!, '--json');
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ status: 'done', state: 'done' });
    expect(existsSync(join(reports, 'tmp.log'))).toBe(false);

    const again = await homebody(dataDir, 'approvals', 'approve', queued.approvalId!, '--json');
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ state: 'done', error: expect.stringMatching(/already decided/) });
  });

  it("approving from the command line makes the call's task go on in that process, with the last model", async () => {
    const ran = await homebody(
      dataDir,
      'run',
      '--model',
      inject('tinyModelPath'),
      '--max-tokens',
      '4',
      '--json',
      'tidy up',
    );
    expect(ran.code).toBe(0);
    const { taskId } = JSON.parse(ran.stdout) as { taskId: string };
    const queue = async (file: string) => {
      writeFileSync(join(reports, file), file);
      const args = JSON.stringify({ path: join(reports, file) });
      const out = await homebody(dataDir, 'tools', 'call', 'delete_permanently', args, '--task', taskId, '--json');
      return (JSON.parse(out.stdout) as ToolCallJson).approvalId!;
    };
    // The start of the call's id is enough, as copied from `approvals list`.
    const approved = await homebody(dataDir, 'approvals', 'approve', (await queue('one.log')).slice(0, 8), '--json');
    expect(approved.code).toBe(0);
    const decided = JSON.parse(approved.stdout) as { status: string; continued: Array<Record<string, unknown>> };
    expect(decided.status).toBe('done');
    // The generated model's reply is noise, cut at the length cap; what matters is that it was written here.
    expect(decided.continued).toEqual([
      {
        taskId,
        messageId: expect.any(String),
        state: expect.stringMatching(/^(complete|truncated)$/),
        text: expect.any(String),
        error: null,
      },
    ]);
    const onlyDecided = await homebody(
      dataDir,
      'approvals',
      'approve',
      await queue('two.log'),
      '--no-continue',
      '--json',
    );
    expect((JSON.parse(onlyDecided.stdout) as { continued: unknown[] }).continued).toEqual([]);
    const store = openStore(dataDir);
    try {
      expect(store.messages.listForTask(taskId).map((m) => [m.role, m.state])).toEqual([
        ['user', 'complete'],
        ['assistant', 'truncated'],
        ['assistant', decided.continued[0]!.state],
      ]);
    } finally {
      store.close();
    }
    expect(existsSync(join(reports, 'one.log')) || existsSync(join(reports, 'two.log'))).toBe(false);
  });

  it('marks a call that was executing when the process died as interrupted, and never runs it again', async () => {
    const queued = await call(dataDir, 'delete_permanently', { path: join(reports, 'old.log') });
    // The moment a kill -9 would leave behind: approved, marked executing, the file not yet touched.
    const store = openStore(dataDir);
    store.toolCalls.decide(queued.approvalId!, 'pending', 'approved', {
      decision: 'approve',
      by: 'user',
      now: Date.now(),
    });
    expect(store.toolCalls.start(queued.approvalId!, Date.now())).toBe(true);
    store.close();
    const list = JSON.parse((await homebody(dataDir, 'approvals', 'list', '--json')).stdout) as Array<{
      id: string;
      state: string;
    }>;
    expect(list.find((c) => c.id === queued.approvalId)?.state).toBe('interrupted');
    const approved = await homebody(dataDir, 'approvals', 'approve', queued.approvalId!, '--json');
    expect(approved.code).toBe(1);
    expect(JSON.parse(approved.stdout)).toMatchObject({ error: expect.stringMatching(/will not run again/) });
    expect(existsSync(join(reports, 'old.log'))).toBe(true);
  });

  it('exports and imports the policy, refusing a bad one with a clear error', async () => {
    const exported = await homebody(dataDir, 'policy', 'export');
    const policy = JSON.parse(exported.stdout) as { folders: Array<{ path: string }>; tools: Record<string, string> };
    expect(policy.folders.map((f) => f.path)).toEqual([reports]);
    expect(policy.tools).toMatchObject({ read_text: 'auto', list_folder: 'auto' });

    const other = join(work, 'other-data');
    const file = join(work, 'policy.json');
    writeFileSync(file, exported.stdout);
    expect((await homebody(other, 'policy', 'import', file)).code).toBe(0);
    expect(JSON.parse((await homebody(other, 'policy', 'export')).stdout)).toEqual(policy);

    writeFileSync(file, JSON.stringify({ ...policy, tools: { delete_permanently: 'auto' } }));
    const refused = await homebody(other, 'policy', 'import', file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/cannot be undone/);
    const unknownMode = await homebody(other, 'policy', 'set', 'move', 'sometimes');
    expect(unknownMode.code).toBe(2);
  });
});
