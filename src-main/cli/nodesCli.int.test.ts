/**
 * A model on another computer from the command line, against llama-server on loopback: a new data folder is offline
 * and says why; added with --allow-offline; `run --node` refused until --allow-remote, then answered and marked in
 * --json; the task goes on with no new agreement; removed with its rule.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorReport, RemoteNode } from '../../src-shared/contract/index.js';
import { runCli } from '../testing/cliProcess.js';
import { llamaBinaries, startLlamaServer, type RunningServer } from '../testing/llamaServerProcess.js';
import { ensureTestModel } from '../testing/testModels.js';
import type { RunJson } from './runOutput.js';

const work = mkdtempSync(join(tmpdir(), 'hb-nodes-cli-'));
const dataDir = join(work, 'data');
let server: RunningServer;

beforeAll(async () => {
  server = await startLlamaServer(llamaBinaries().server, {
    model: ensureTestModel('tiny', 'q8_0'),
    contextSize: 8192,
    apiKey: 'sesame',
  });
}, 600_000);
afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('homebody nodes and run --node', () => {
  let node: RemoteNode;

  it('offline by default, says why; wants the API key; added with --allow-offline, the key never printed', async () => {
    const blocked = await runCli(dataDir, 'nodes', 'check', server.url);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toMatch(/Offline mode is on/);

    const keyFile = join(work, 'key');
    writeFileSync(keyFile, 'wrong\n');
    const refused = await runCli(dataDir, 'nodes', 'check', server.url, '--allow-offline', '--api-key-file', keyFile);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/HTTP 401/);

    writeFileSync(keyFile, 'sesame\n');
    const added = await runCli(
      dataDir,
      'nodes',
      'add',
      `${server.url}/v1`,
      '--api-key-file',
      keyFile,
      '--label',
      'the den',
      '--allow-offline',
      '--json',
    );
    expect(added.code, added.stderr).toBe(0);
    node = JSON.parse(added.stdout) as RemoteNode;
    expect(node).toMatchObject({ url: server.url, label: 'the den', hasApiKey: true, allowOffline: true });
    const listed = await runCli(dataDir, 'nodes', 'list');
    expect(listed.stdout).toContain(`${node.id}  the den  ${server.url}`);
    for (const out of [added, listed]) expect(out.stdout + out.stderr).not.toContain('sesame');
  });

  it('run --node is refused until --allow-remote, nothing saved; then answered, marked, and the task goes on', async () => {
    const refused = await runCli(dataDir, 'run', '--node', node.id, '--max-tokens', '4', 'hello there');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/runs on another computer: the den.*--allow-remote/s);
    expect((await runCli(dataDir, 'history', 'list', '--json')).stdout).not.toContain('hello there');

    const answered = await runCli(
      dataDir,
      'run',
      '--node',
      node.id,
      '--allow-remote',
      '--max-tokens',
      '4',
      '--json',
      'hello there',
    );
    expect(answered.code, answered.stderr).toBe(0);
    const out = JSON.parse(answered.stdout) as RunJson;
    expect(out.messages[0]).toEqual({ role: 'user', text: 'hello there' });
    expect(out.messages[1]?.remote).toEqual({ url: server.url, model: node.model, label: 'the den' });
    expect(out.stats?.completionTokens).toBeGreaterThan(0);

    // The node is the data folder's last model, and the task was agreed for it.
    const again = await runCli(dataDir, 'run', '--task', out.taskId, '--max-tokens', '4', '--json', 'and again');
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as RunJson).messages.at(-1)?.remote?.url).toBe(server.url);
  });

  it('doctor measures the node: its round trip and decode speed', async () => {
    const out = await runCli(dataDir, 'doctor', '--json');
    expect(out.code, out.stderr).toBe(0);
    const { nodes } = JSON.parse(out.stdout) as DoctorReport;
    expect(nodes).toHaveLength(1);
    expect(nodes![0]).toMatchObject({ id: node.id, label: 'the den', error: null });
    expect(nodes![0]!.roundTripMs).toBeGreaterThanOrEqual(0);
    expect(nodes![0]!.completionTokens).toBeGreaterThan(0);
    expect(nodes![0]!.tokensPerSecond).toBeGreaterThan(0);
    const text = await runCli(dataDir, 'doctor');
    expect(text.stdout).toMatch(
      new RegExp(
        `Models on other computers\n  the den \\(${server.url.replace(/[.:/]/g, '\\$&')}\\), .*: round trip \\d+ ms, first token \\d+ ms, decode [\\d.]+ tok/s`,
      ),
    );

    // A node that stopped answering is shown with why, and the report still comes.
    await runCli(dataDir, 'nodes', 'allow-offline', node.id, 'off');
    const blocked = JSON.parse((await runCli(dataDir, 'doctor', '--json')).stdout) as DoctorReport;
    expect(blocked.nodes![0]).toMatchObject({ roundTripMs: null, error: { code: 'NETWORK_BLOCKED' } });
    await runCli(dataDir, 'nodes', 'allow-offline', node.id, 'on');
  });

  it('removes the node with its offline rule', async () => {
    const removed = await runCli(dataDir, 'nodes', 'remove', node.id);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(/Removed the den/);
    expect(JSON.parse((await runCli(dataDir, 'privacy', 'network', '--json')).stdout).rules).toEqual([]);
    const gone = await runCli(dataDir, 'run', '--node', node.id, 'hello');
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/no model on another computer with id/);
  });
});
