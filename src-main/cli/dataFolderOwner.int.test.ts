import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../src-shared/contract/index.js';
import { createHost, type HostInternals } from '../host/createHost.js';
import { LOCK_FILE, OWNER_FILE } from '../store/dataFolderLock.js';
import { DATABASE_FILE } from '../store/store.js';
import { REPO_ROOT, runCli } from '../testing/cliProcess.js';
import { compiled } from '../testing/compiledApp.js';

// One owner per data folder, with real processes: while a Host holds the folder (the app, `serve`), a command-line
// command on it is refused, naming the holder, and changes nothing: the running call stays running, the open prompt
// stays open and can still be answered. Once the holder is killed, the next start takes the folder and runs crash
// recovery, once; a clean exit lets the folder go.

const hosts: HostInternals[] = [];
const children = new Set<ChildProcess>();
const dirs: string[] = [];
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  for (const host of hosts.splice(0)) await host.dispose();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function work(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hb-owner-')));
  dirs.push(dir);
  return dir;
}

async function host(dataDir: string): Promise<HostInternals> {
  const started = await createHost({ dataDir, shell: 'browser', command: 'homebody serve', loadModelOnStart: false });
  hosts.push(started);
  return started;
}

/** A call that is running, recorded as ToolActions moves one: approved, then started. */
function executingCall(h: HostInternals, id: string): ToolCall {
  h.store.toolCalls.insert({
    id,
    taskId: null,
    tool: 'write_text',
    args: { path: '/tmp/hb-owner-never.txt', content: 'x', overwrite: false },
    description: { title: 'Write a file', summary: 'hb-owner-never.txt', details: [] },
    risk: 'write',
    gate: 'prompt',
    state: 'approved',
    taint: [],
    now: Date.now(),
  });
  expect(h.store.toolCalls.start(id, Date.now())).toBe(true);
  return h.store.toolCalls.get(id)!;
}

interface OwnerProcess {
  readonly child: ChildProcess;
  readonly ready: Promise<{ pid: number; callId: string | null }>;
  readonly exited: Promise<NodeJS.Signals | number | null>;
}

/** A Host in a process of its own (testing/hostOwnerChild.ts), holding the folder until stopped or killed. */
function ownerProcess(dataDir: string, ...flags: string[]): OwnerProcess {
  const child = spawn(process.execPath, [compiled('testing/hostOwnerChild'), dataDir, ...flags], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.add(child);
  const exited = new Promise<NodeJS.Signals | number | null>((done) =>
    child.once('exit', (code, signal) => done(signal ?? code)),
  );
  const ready = new Promise<{ pid: number; callId: string | null }>((done, fail) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{"ready"')) done((JSON.parse(line) as { ready: { pid: number; callId: string } }).ready);
    });
    void exited.then((how) => fail(new Error(`the Host process ended (${String(how)}) before it was ready`)));
  });
  return { child, ready, exited };
}

const interruptions = (h: HostInternals, callId: string) =>
  h.store.audit.page(Number.MAX_SAFE_INTEGER, 1000).filter((e) => e.callId === callId && e.kind === 'interrupted');

describe('one owner per data folder', () => {
  it('refuses a command while a Host holds the folder: no call changes, and the open prompt still runs', async () => {
    const root = work();
    const dataDir = join(root, 'data');
    const docs = join(root, 'Docs');
    mkdirSync(docs);
    writeFileSync(join(docs, 'plan.txt'), 'the plan');
    writeFileSync(join(docs, 'old.txt'), 'old');
    const app = await host(dataDir);
    await app.invoke('policy.grantFolder', { path: docs, untrusted: false });
    const running = executingCall(app, 'running-call');
    const prompt = await app.tools.propose({
      taskId: null,
      tool: 'list_folder',
      args: { path: docs },
      actor: 'model',
      interactive: true,
    });
    expect(prompt).toMatchObject({ status: 'needs-permission', call: { state: 'pending', gate: 'prompt' } });
    const queued = await app.tools.propose({
      taskId: null,
      tool: 'delete_permanently',
      args: { path: join(docs, 'old.txt') },
      actor: 'model',
      interactive: true,
    });
    expect(queued).toMatchObject({ status: 'queued', call: { state: 'pending', gate: 'queue' } });
    const calls = () => [running.id, prompt.call!.id, queued.call!.id].map((id) => app.store.toolCalls.get(id));
    const before = calls();
    const auditBefore = app.store.audit.page(Number.MAX_SAFE_INTEGER, 1000);

    // Reading and deciding commands alike, started together: each is refused before it opens anything.
    const commands = [
      ['approvals', 'list'],
      ['approvals', 'approve', queued.call!.id],
      ['history', 'list'],
    ];
    const results = await Promise.all(commands.map((args) => runCli(dataDir, ...args)));
    for (const [i, refused] of results.entries()) {
      const args = commands[i];
      expect({ args, code: refused.code }).toEqual({ args, code: 1 });
      expect(refused.stderr).toMatch(
        new RegExp(
          `^homebody: The data folder ${dataDir} is in use by Homebody \\(pid ${process.pid}, "homebody serve", since \\d\\d:\\d\\d\\)\\. Stop it first, or use --data-dir for another folder\\.\\n$`,
        ),
      );
      expect(refused.stdout).toBe('');
    }
    expect(calls()).toEqual(before);
    expect(calls().map((c) => c?.state)).toEqual(['executing', 'pending', 'pending']);
    expect(app.store.audit.page(Number.MAX_SAFE_INTEGER, 1000)).toEqual(auditBefore);
    expect(existsSync(join(docs, 'old.txt'))).toBe(true);

    // The user's Allow still does what it says.
    const answered = await app.tools.answerPrompt(prompt.call!.id, 'allow-once');
    expect(answered.status).toBe('done');
    expect(JSON.stringify(answered.call?.result)).toContain('plan.txt');
  });

  it('after the holder is killed, the next start takes the folder and runs crash recovery once', async () => {
    const dataDir = join(work(), 'data');
    const owner = ownerProcess(dataDir, '--executing');
    const { pid, callId } = await owner.ready;
    const refused = await runCli(dataDir, 'approvals', 'list');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`(pid ${pid}, "homebody serve", since `);

    owner.child.kill('SIGKILL');
    expect(await owner.exited).toBe('SIGKILL');
    const listed = await runCli(dataDir, 'approvals', 'list', '--json');
    expect(listed).toMatchObject({ code: 0, stdout: '[]\n' });

    // The command was the next start: it marked the killed Host's running call, and the start after it finds
    // nothing left to recover.
    const next = await host(dataDir);
    expect(next.store.toolCalls.get(callId!)).toMatchObject({ state: 'interrupted' });
    expect(interruptions(next, callId!)).toHaveLength(1);
    await next.dispose();
    const again = await host(dataDir);
    expect(interruptions(again, callId!)).toHaveLength(1);
  });

  it('two commands started at once: the second waits for the first, and neither change is lost', async () => {
    const root = work();
    const dataDir = join(root, 'data');
    const folders = ['A', 'B'].map((name) => join(root, name));
    for (const folder of folders) mkdirSync(folder);
    const results = await Promise.all(folders.map((folder) => runCli(dataDir, 'policy', 'grant', folder)));
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    // Each read the policy and wrote it back with its folder added; had two overlapped, one grant would be gone.
    const after = await host(dataDir);
    expect(
      after
        .policy()
        .folders.map((f) => f.path)
        .sort(),
    ).toEqual(folders);
  });

  it.runIf(process.platform !== 'win32')(
    'a fresh start makes the data folder and its folders 0700 and its files 0600 (POSIX; Windows has ACLs)',
    async () => {
      const dataDir = join(work(), 'data');
      const owner = ownerProcess(dataDir, '--executing');
      await owner.ready;
      // While the Host runs, with the database's -wal and -shm in use.
      const modes = Object.fromEntries(
        readdirSync(dataDir).map((name) => [name, statSync(join(dataDir, name)).mode & 0o777]),
      );
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      for (const file of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, LOCK_FILE, OWNER_FILE])
        expect({ file, mode: modes[file] }).toEqual({ file, mode: 0o600 });
      // The pack folders the start made (notes, calendar, reminders...), and whatever else it made: all private.
      expect(Object.keys(modes).length).toBeGreaterThan(5);
      for (const [name, mode] of Object.entries(modes)) expect({ name, open: mode & 0o077 }).toEqual({ name, open: 0 });
      owner.child.stdin!.write('stop\n');
      expect(await owner.exited).toBe(0);
    },
  );

  it('lets the folder go on a clean exit', async () => {
    const dataDir = join(work(), 'data');
    const owner = ownerProcess(dataDir);
    await owner.ready;
    expect(existsSync(join(dataDir, OWNER_FILE))).toBe(true);
    owner.child.stdin!.write('stop\n');
    expect(await owner.exited).toBe(0);
    expect(existsSync(join(dataDir, OWNER_FILE))).toBe(false);
    expect(await runCli(dataDir, 'approvals', 'list')).toMatchObject({
      code: 0,
      stdout: 'Nothing waits for approval.\n',
    });
  });
});
