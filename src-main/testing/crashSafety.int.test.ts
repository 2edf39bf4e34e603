import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import type { HostEvent, Message, ToolCall } from '../../src-shared/contract/index.js';
import { createHost } from '../host/createHost.js';
import { storageFailure } from '../store/db.js';
import { openStore } from '../store/store.js';
import type { CrashChildConfig, EarlierReply } from './crashChild.js';
import { compiled } from './compiledApp.js';

// Crash safety with a real kill -9: Homebody runs in a process of its own (crashChild.ts: the Host as `serve` makes
// it) on the generated model, makes the earlier turns, is killed with SIGKILL while a reply streams or while a tool
// runs, and the data folder is then opened as the next start opens it. Everything waits for states, never for a
// length of time.

const root = resolve(import.meta.dirname, '..', '..');
const model = inject('tinyModelPath');
// One llama.cpp thread: on a busy machine (two test files at once on two cores) two threads wait on each other at
// every token, and a tiny model's reply runs tens of times slower; a crash is a crash at any speed.
const THREADS = 1;
const env = { ...process.env, HOMEBODY_GPU: 'cpu', HOMEBODY_THREADS: String(THREADS) };
const json = (value: unknown) => JSON.stringify(value);
const FULL_DISK = storageFailure(
  Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
)!.message;
const LONG = 600_000;

/** Processes to SIGKILL after each test if they are still there, and folders to remove. */
const live = new Set<number>();
const dirs: string[] = [];
afterEach(() => {
  for (const pid of live) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
}

// The evaluated system prompt and tool definitions, shared by every Host of this file (keyed by the model file and
// the tokens, so a Host only ever loads a prefix it would have evaluated itself): the same tools are evaluated once.
const prefixCacheDir = realpathSync(mkdtempSync(join(tmpdir(), 'hb-crash-prefix-')));
afterAll(() => rmSync(prefixCacheDir, { recursive: true, force: true }));

interface HostProcess {
  readonly child: ChildProcess;
  /** The JSON lines it printed (see crashChild.ts). */
  readonly lines: Array<Record<string, unknown>>;
  stderr(): string;
  readonly exited: Promise<NodeJS.Signals | number | null>;
}

interface SentIds {
  taskId: string;
  userMessageId: string;
  assistantMessageId: string;
}

/** Starts the Host in its own process: `node` itself, not a wrapper, so the kill reaches the Host. */
function startHost(dir: string, config: CrashChildConfig): HostProcess {
  const file = join(dir, 'child.json');
  writeFileSync(file, json(config));
  const child = spawn(process.execPath, [compiled('testing/crashChild'), file], {
    cwd: root,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(child.pid!);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-8000);
  });
  const lines: Array<Record<string, unknown>> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a library's log line
    }
  });
  const exited = new Promise<NodeJS.Signals | number | null>((done) =>
    child.once('exit', (code, signal) => done(signal ?? code)),
  );
  return { child, lines, stderr: () => stderr, exited };
}

/** Waits until the Host process has its model and has made the earlier turns; answers those turns. */
function ready(host: HostProcess): Promise<EarlierReply[]> {
  return until(
    'the model is loaded and the earlier turns are made',
    () => {
      const line = host.lines.find((l) => 'ready' in l);
      return line ? (line.ready as { earlier: EarlierReply[] }).earlier : undefined;
    },
    host,
  );
}

/** Sends a message through the Host process (its chat.send); resolves once it is saved and its reply began. */
function send(host: HostProcess, taskId: string | null, text: string): Promise<SentIds> {
  host.child.stdin!.write(`${json({ taskId, text })}\n`);
  return until('the message is sent', () => host.lines.find((l) => 'sent' in l)?.sent as SentIds | undefined, host);
}

/** Polls `check` until it gives a value; fails early if the Host process ended or reported an error. */
async function until<T>(what: string, check: () => T | undefined, host?: HostProcess): Promise<T> {
  const deadline = Date.now() + 300_000; // a safety net only: every wait is for a state
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (host) {
      const error = host.lines.find((l) => 'error' in l);
      if (error) throw new Error(`Homebody reported ${json(error)} before ${what}`);
      if (host.child.exitCode !== null || host.child.signalCode !== null)
        throw new Error(`Homebody ended before ${what}:\n${host.stderr()}`);
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting until ${what}`);
    await sleep(20);
  }
}

async function killHard(host: HostProcess): Promise<void> {
  process.kill(host.child.pid!, 'SIGKILL');
  expect(await host.exited).toBe('SIGKILL');
  live.delete(host.child.pid!);
}

interface Proc {
  pid: number;
  ppid: number;
  stat: string;
  args: string;
}

function processes(): Proc[] {
  const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' });
  return out.split('\n').flatMap((line) => {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    return m ? [{ pid: Number(m[1]), ppid: Number(m[2]), stat: m[3]!, args: m[4]! }] : [];
  });
}

/** A zombie (ended, not yet reaped by whoever inherited it) counts as gone. */
const isRunning = (pid: number) => processes().some((p) => p.pid === pid && !p.stat.startsWith('Z'));

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length;
}

describe('kill -9', () => {
  it(
    'while a reply streams: the database is sound, every saved message is there, the reply is kept and marked interrupted',
    async () => {
      const dir = tempDir('hb-crash-reply-');
      const dataDir = join(dir, 'data');
      // The earlier tasks, made in the process that is then killed: two turns of one task, one turn of another.
      let host = startHost(dir, {
        dataDir,
        model,
        maxTokens: 4000,
        prefixCacheDir,
        earlier: [{ text: 'Plan my week' }, { continues: 0, text: 'And the weekend?' }, { text: 'A shopping list' }],
      });
      const [first, , other] = (await ready(host)) as [EarlierReply, EarlierReply, EarlierReply];
      expect(other.taskId).not.toBe(first.taskId);
      let earlier: Message[] = [];
      let otherTask: unknown;
      let otherMessages: Message[] = [];
      let sent: SentIds;
      let seen: string;
      let prompt: string;
      // A random-weight model may end its reply on its own after its first few tokens, before the kill: that reply is
      // simply complete, so the case is set up again with another prompt (as the full-disk case below does).
      for (let attempt = 1; ; attempt++) {
        if (attempt > 1) {
          host = startHost(dir, { dataDir, model, maxTokens: 4000, prefixCacheDir });
          await ready(host);
        }
        const before = openStore(dataDir);
        earlier = before.messages.listForTask(first.taskId);
        otherTask = before.tasks.get(other.taskId);
        otherMessages = before.messages.listForTask(other.taskId);
        before.close();
        if (attempt === 1) expect(earlier).toHaveLength(4);
        prompt = attempt === 1 ? 'Tell me a long story' : `Tell me a long story, take ${attempt}`;
        sent = await send(host, first.taskId, prompt);
        // The reply reaches the database as it streams, batch after batch: wait for two, then kill. A batch may be
        // of thought (the random model opened `<think>`), kept apart from the answer; a reply that ended first is
        // simply complete, and the loop sets the case up again.
        const poll = openStore(dataDir);
        try {
          const lengths = new Set<number>();
          const ended = () => host.lines.some((l) => 'finished' in l);
          seen = await until(
            'two batches of the reply are saved',
            () => {
              const saved = poll.messages.get(sent.assistantMessageId);
              const length = (saved?.text.length ?? 0) + (saved?.reasoning.length ?? 0);
              if (length > 0) lengths.add(length);
              return lengths.size >= 2 || ended() ? (saved?.text ?? '') : undefined;
            },
            host,
          );
        } finally {
          poll.close();
        }
        await killHard(host);
        if (!host.lines.some((l) => 'finished' in l) || attempt === 5) break;
      }
      expect(host.lines.filter((l) => 'finished' in l)).toEqual([]);

      // As the crash left it: sound, and the reply still streaming (it really was killed mid-reply).
      const store = openStore(dataDir);
      let atCrash: Message;
      try {
        expect(store.integrityCheck()).toBe('ok');
        atCrash = store.messages.get(sent.assistantMessageId)!;
        expect(atCrash.state).toBe('streaming');
        expect(atCrash.text.startsWith(seen)).toBe(true);
      } finally {
        store.close();
      }

      // The next start: nothing saved before is lost; the reply keeps its text and is marked interrupted.
      const restarted = await createHost({ dataDir, shell: 'cli', loadModelOnStart: false });
      try {
        expect(restarted.store.integrityCheck()).toBe('ok');
        const detail = await restarted.invoke('tasks.get', { taskId: first.taskId });
        expect(detail.task.status).toBe('stopped');
        const n = earlier.length;
        expect(detail.messages.slice(0, n)).toEqual(earlier);
        expect(detail.messages[n]).toMatchObject({
          id: sent.userMessageId,
          role: 'user',
          text: prompt,
          state: 'complete',
        });
        expect(detail.messages[n + 1]).toMatchObject({
          id: sent.assistantMessageId,
          role: 'assistant',
          text: atCrash.text,
          state: 'interrupted',
        });
        expect(detail.messages).toHaveLength(n + 2);
        const untouched = await restarted.invoke('tasks.get', { taskId: other.taskId });
        expect(untouched.task).toEqual(otherTask);
        expect(untouched.messages).toEqual(otherMessages);
        expect((await restarted.invoke('tasks.list', {})).tasks.map((t) => t.status)).not.toContain('running');
      } finally {
        await restarted.dispose();
      }
    },
    LONG,
  );

  it(
    'while a tool runs: the call is marked interrupted and not run again, and the tool worker ends with Homebody',
    async () => {
      const dir = tempDir('hb-crash-tool-');
      const dataDir = join(dir, 'data');
      const docs = join(dir, 'Docs');
      const big = join(docs, 'Big');
      const copyTo = join(docs, 'Big copy');
      // 8,000 files (a copy takes at most 10,000 entries): the copy runs long enough to be caught running.
      const FILES = 8000;
      for (let i = 0; i < 80; i++) {
        mkdirSync(join(big, `folder ${i}`), { recursive: true });
        for (let j = 0; j < FILES / 80; j++)
          writeFileSync(join(big, `folder ${i}`, `note ${j}.txt`), `note ${i}.${j}\n`);
      }
      const prompt = 'make a copy of Big';
      const host = startHost(dir, {
        dataDir,
        model,
        maxTokens: 256,
        prefixCacheDir,
        earlier: [{ text: 'Plan my week' }],
        // Then the user grants Docs and lets copy run without asking, as `homebody policy grant` and `set` do.
        calls: [
          { method: 'policy.grantFolder', request: { path: docs, untrusted: false } },
          { method: 'policy.setMode', request: { tool: 'copy', mode: 'auto' } },
        ],
        scripts: { [prompt]: [{ name: 'copy', params: `{"from": ${json(big)}, "to": ${json(copyTo)}}` }] },
      });
      const [first] = (await ready(host)) as [EarlierReply];
      const sent = await send(host, first.taskId, prompt);

      const poll = openStore(dataDir);
      let call: ToolCall;
      try {
        call = await until(
          'the copy is executing',
          () => {
            const copy = poll.toolCalls.listForTask(sent.taskId).find((c) => c.tool === 'copy');
            if (copy && copy.state !== 'approved' && copy.state !== 'executing')
              throw new Error(`the copy ended (${copy.state}) before it could be killed: make the fixture larger`);
            return copy?.state === 'executing' ? copy : undefined;
          },
          host,
        );
      } finally {
        poll.close();
      }
      await until('the copy is writing', () => (existsSync(copyTo) ? true : undefined), host);
      const worker = processes().find((p) => p.ppid === host.child.pid && p.args.includes('toolWorker'));
      expect(worker, 'the tool worker runs in a process of its own').toBeDefined();
      live.add(worker!.pid);
      await killHard(host);

      // The worker's IPC channel closes with its parent: it ends by itself and never outlives Homebody.
      await until('the tool worker has ended', () => (isRunning(worker!.pid) ? undefined : true));
      live.delete(worker!.pid);
      const copiedAtCrash = countFiles(copyTo);
      expect(copiedAtCrash).toBeLessThan(FILES);

      const store = openStore(dataDir);
      try {
        expect(store.integrityCheck()).toBe('ok');
        expect(store.toolCalls.get(call.id)?.state).toBe('executing');
      } finally {
        store.close();
      }

      const restarted = await createHost({ dataDir, shell: 'cli', loadModelOnStart: false });
      try {
        expect(restarted.store.integrityCheck()).toBe('ok');
        const detail = await restarted.invoke('tasks.get', { taskId: first.taskId });
        expect(detail.toolCalls).toHaveLength(1);
        expect(detail.toolCalls[0]).toMatchObject({ id: call.id, tool: 'copy', state: 'interrupted' });
        expect(detail.task.status).toBe('stopped');
        expect(detail.messages.map((m) => [m.role, m.state])).toEqual([
          ['user', 'complete'],
          ['assistant', 'truncated'],
          ['user', 'complete'],
          ['assistant', 'interrupted'],
        ]);
        expect(detail.messages.map((m) => m.text).slice(0, 3)).toEqual(['Plan my week', first.reply.text, prompt]);
        // Started once, interrupted, never finished nor started again.
        const kinds = restarted.store.audit
          .forTask(first.taskId)
          .filter((e) => e.callId === call.id)
          .map((e) => e.kind);
        expect(kinds.filter((k) => k === 'started')).toHaveLength(1);
        expect(kinds).toContain('interrupted');
        expect(kinds).not.toContain('finished');
      } finally {
        await restarted.dispose();
      }
      expect(countFiles(copyTo)).toBe(copiedAtCrash);
      expect(countFiles(big)).toBe(FILES);
    },
    LONG,
  );
});

describe('a full disk', () => {
  it(
    'ends the reply with an error the user sees, loses nothing saved, and works again once there is room',
    async () => {
      const dir = tempDir('hb-full-disk-');
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      const host = await createHost({
        dataDir: join(dir, 'data'),
        shell: 'cli',
        loadModelOnStart: false,
        engineConfig: { gpu: false, threads: THREADS, prefixCacheDir },
        reply: { maxTokens: 4000 },
      });
      try {
        expect((await host.invoke('model.open', { path: model })).status).toBe('ready');
        const events: HostEvent[] = [];
        host.subscribe((event) => events.push(event));
        // Saved in part: some of the reply, answer or thought (a random model may open `<think>` at once), is in the
        // database; or the reply already ended, which each wait's caller handles.
        const savedInPart = (id: string) => {
          const saved = host.store.messages.get(id);
          if (!saved) return undefined;
          return saved.text || saved.reasoning || saved.state !== 'streaming' ? true : undefined;
        };

        // An earlier turn, stopped by the user once its reply has text.
        const first = await host.invoke('chat.send', { taskId: null, text: 'Plan my week' });
        await until('the first reply is saved in part', () => savedInPart(first.assistantMessageId));
        await host.invoke('chat.stop', { taskId: first.taskId });
        const earlier = host.store.messages.listForTask(first.taskId);

        // The disk fills while a reply streams. A random-weight model may end its reply on its own between the
        // first saved text and the disk filling: that reply is simply complete, so the case is set up again.
        let sent: SentIds;
        let final: Message;
        for (let attempt = 1; ; attempt++) {
          sent = await host.invoke('chat.send', { taskId: first.taskId, text: 'Tell me a long story' });
          const assistantId = sent.assistantMessageId;
          await until('the reply is saved in part', () => savedInPart(assistantId));
          host.store.simulateFullDiskForTests(true);
          final = (await host.chat.whenDone(sent.taskId))!;
          if (final.state !== 'complete' || attempt === 5) break;
          host.store.simulateFullDiskForTests(false);
        }
        expect(final).toMatchObject({ id: sent.assistantMessageId, state: 'failed', error: FULL_DISK });
        expect(events).toContainEqual({ type: 'message.finished', message: final });
        const saved = host.store.messages.get(sent.assistantMessageId)!;
        expect(saved.text.length + saved.reasoning.length).toBeGreaterThan(0);
        expect(final.text.startsWith(saved.text)).toBe(true);
        expect(final.reasoning.startsWith(saved.reasoning)).toBe(true);
        expect(host.store.integrityCheck()).toBe('ok');
        expect(host.store.messages.listForTask(first.taskId).slice(0, earlier.length)).toEqual(earlier);

        // A message sent while the disk is full is refused with the same sentence, by every transport's entry.
        const stored = host.store.messages.listForTask(first.taskId).length;
        const refused = await host.call('chat.send', { taskId: sent.taskId, text: 'z'.repeat(2_000) });
        expect(refused).toMatchObject({ ok: false, error: { code: 'STORAGE_FULL', message: FULL_DISK } });
        expect(host.store.messages.listForTask(first.taskId)).toHaveLength(stored);

        host.store.simulateFullDiskForTests(false);
        const next = await host.call('chat.send', { taskId: sent.taskId, text: 'And then?' });
        expect(next.ok).toBe(true);
        const nextIds = (next as { value: SentIds }).value;
        await until('the next reply is saved in part', () => savedInPart(nextIds.assistantMessageId));
        await host.invoke('chat.stop', { taskId: sent.taskId });
        // Stopped, or complete when the random model ended it first: either way saved, not failed.
        expect(['stopped', 'complete']).toContain(host.store.messages.get(nextIds.assistantMessageId)?.state);
        // The failed reply's end was written once there was room, with all of its text.
        expect(host.store.messages.get(sent.assistantMessageId)).toMatchObject({
          state: 'failed',
          text: final.text,
          error: FULL_DISK,
        });
        expect(host.store.integrityCheck()).toBe('ok');
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', onUnhandled);
        await host.dispose();
      }
    },
    LONG,
  );
});
