import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type HostInternals } from '../host/createHost.js';
import { runCli } from '../testing/cliProcess.js';

// `__proto__` in a tool call's arguments, through ToolActions as the model's and the command line's calls go: the
// call is rejected with the key and its place named, before anything is recorded or run. Without the check, the
// copy that is validated and described takes `overwrite: true` from its prototype, while the JSON stored and run
// does not hold it.

const root = realpathSync(mkdtempSync(join(tmpdir(), 'hb-argkeys-')));
const docs = join(root, 'Docs');
const target = join(docs, 'report.txt');
const refusal = 'The key `__proto__` at the top of the arguments is not allowed';
const hostile = JSON.stringify({ path: target, content: 'x' }).replace(
  /^\{/,
  '{"__proto__": {"overwrite": true, "path": "/etc/hostname"}, ',
);

let host: HostInternals;
beforeAll(async () => {
  mkdirSync(docs);
  host = await createHost({ dataDir: join(root, 'data'), shell: 'cli', loadModelOnStart: false });
  await host.invoke('policy.grantFolder', { path: docs, untrusted: false });
  await host.invoke('policy.setMode', { tool: 'write_text', mode: 'auto' });
});
afterAll(async () => {
  await host.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe('argument keys that cannot lie', () => {
  it.each([
    ['at the top', hostile, refusal],
    [
      'nested in an array',
      JSON.stringify({ path: target, content: 'x' }).replace(/\}$/, ', "tags": [{"constructor": {"prototype": 1}}]}'),
      'The key `constructor` in `tags[0]` is not allowed',
    ],
  ])(
    'a call with a reserved key %s is rejected through ToolActions and never recorded or run',
    async (_, json, said) => {
      const before = host.store.rowCounts().tool_calls;
      const outcome = await host.tools.propose({
        taskId: null,
        tool: 'write_text',
        args: JSON.parse(json),
        actor: 'model',
        interactive: true,
      });
      expect(outcome.status).toBe('rejected');
      expect('error' in outcome ? outcome.error : '').toContain(said);
      expect(host.store.rowCounts().tool_calls).toBe(before);
      expect(existsSync(target)).toBe(false);
    },
  );

  it('is refused the same way from the command line, in its own process', async () => {
    await host.dispose();
    const out = await runCli(join(root, 'data'), 'tools', 'call', 'write_text', hostile, '--json');
    expect(out.code).toBe(1);
    const json = JSON.parse(out.stdout) as { status: string; error: string };
    expect(json.status).toBe('failed');
    expect(json.error).toContain(refusal);
    expect(existsSync(target)).toBe(false);
    host = await createHost({ dataDir: join(root, 'data'), shell: 'cli', loadModelOnStart: false });
    expect(host.store.rowCounts().tool_calls).toBe(0);
  });
});
