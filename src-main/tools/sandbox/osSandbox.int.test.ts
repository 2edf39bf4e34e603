import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, compiled } from '../../testing/compiledApp.js';
import { startWebTestServer, type WebTestServer } from '../../testing/tools/webTestServer.js';
import { testPackConfig } from '../../testing/tools/packFixture.js';
import type { GrantedRoot } from '../toolTypes.js';
import { ToolError } from '../toolTypes.js';
import { detectOsSandbox } from './osSandbox.js';
import { ToolExecutor, type ExecutorOptions } from './toolExecutor.js';

// The OS sandbox around real workers (bubblewrap here; .ci/run installs it). Most checks use a probe worker that
// runs no tool code and no path check, so only the sandbox stands between it and the disk.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-sandbox-')));
const dataDir = join(work, 'data');
const granted = join(work, 'Granted');
const beside = join(work, 'Beside');
for (const dir of [dataDir, granted, beside]) mkdirSync(dir);
writeFileSync(join(dataDir, 'homebody.sqlite'), 'the history database');
writeFileSync(join(dataDir, 'secret.key'), 'the secret key');
writeFileSync(join(granted, 'notes.txt'), 'granted notes');
writeFileSync(join(beside, 'secret.txt'), 'beside the grant');
symlinkSync(beside, join(granted, 'escape'));
symlinkSync(join(dataDir, 'secret.key'), join(granted, 'key-link'));
// The packs' folders and the trash inside the data folder, as the app keeps them by default.
const packs = testPackConfig(dataDir);
const trashDir = join(dataDir, 'trash');
const roots: GrantedRoot[] = [{ path: granted, untrusted: false }];

/** A probe: each argument names an operation on the disk or the network, answered with its result or error code. */
const PROBE = `
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
const attempt = async (op) => {
  try {
    if (op.read) return readFileSync(op.read, 'utf8');
    if (op.list) return readdirSync(op.list).sort();
    if (op.write) { writeFileSync(op.write, op.text); return 'written'; }
    if (op.viaFd) {
      // Opens a folder it may read, then goes up from it through /proc/self/fd: Node's permission model compares
      // paths as text and lets this through.
      const fd = openSync(op.viaFd, 'r');
      try { return readFileSync('/proc/self/fd/' + fd + '/' + op.then, 'utf8'); } finally { closeSync(fd); }
    }
    if (op.connect) return await new Promise((resolve) => {
      const socket = connect(op.connect, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); resolve('connected'); });
      socket.once('error', (e) => resolve(e.code));
    });
    return 'unknown operation';
  } catch (e) { return e.code ?? String(e); }
};
process.on('message', async (m) => {
  if (m.type !== 'run') return;
  const result = {};
  for (const [name, op] of Object.entries(m.args)) result[name] = await attempt(op);
  process.send({ type: 'result', id: m.id, ok: true, outcome: { result } });
});
`;
function probe(name: string): string {
  const file = join(work, name);
  writeFileSync(file, PROBE);
  return file;
}
// From sources (tsx, no permission model) the sandbox is the only wall; compiled (.mjs) Node's model is there too.
const sourceProbe = probe('probe.ts');
const compiledProbe = probe('probe.mjs');

const executors: ToolExecutor[] = [];
function executor(options: Partial<ExecutorOptions> = {}): ToolExecutor {
  const e = new ToolExecutor({ trashDir, hiddenDirs: [dataDir], workerPath: sourceProbe, ...options });
  executors.push(e);
  return e;
}
// The probes' executors with the default options, shared by the tests: a worker whose folders a test does not change
// is not started again (from sources each start goes through tsx). A change of folders still starts a new one.
let sourceExecutor: ToolExecutor | undefined;
const sourceProbeExecutor = () => (sourceExecutor ??= executor());
let compiledExecutor: ToolExecutor | undefined;
const compiledProbeExecutor = () => (compiledExecutor ??= executor({ workerPath: compiledProbe }));
const ask = async (e: ToolExecutor, tool: string, ops: Record<string, object>, over: GrantedRoot[] = roots) =>
  (await e.run(tool, ops as never, { roots: over, packs })).result as Record<string, unknown>;

let loopback: Server;
let loopbackPort = 0;
let loopbackConnections = 0;
let web: WebTestServer;
beforeAll(async () => {
  loopback = createServer((socket) => {
    loopbackConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => loopback.listen(0, '127.0.0.1', resolve));
  loopbackPort = (loopback.address() as { port: number }).port;
  web = await startWebTestServer();
});
afterAll(async () => {
  await Promise.all(executors.map((e) => e.dispose()));
  await new Promise((resolve) => loopback.close(resolve));
  await web.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the OS sandbox around the tool worker', () => {
  it('is bubblewrap on this machine', async () => {
    const found = await detectOsSandbox({ execPath: process.execPath, env: { PATH: process.env.PATH ?? '' } });
    expect(found, 'bubblewrap must be installed (apt install bubblewrap) for these tests').toMatchObject({
      kind: 'bubblewrap',
      bindFd: true,
    });
    expect(await sourceProbeExecutor().sandbox()).toMatchObject({ kind: 'bubblewrap' });
  });

  it('shows the granted folder and nothing beside it: not /etc, the data folder, a sibling, or a link out', async () => {
    const seen = await ask(sourceProbeExecutor(), 'list_folder', {
      notes: { read: join(granted, 'notes.txt') },
      written: { write: join(granted, 'new.txt'), text: 'made inside' },
      hostname: { read: '/etc/hostname' },
      passwd: { read: '/etc/passwd' },
      database: { read: join(dataDir, 'homebody.sqlite') },
      key: { read: join(dataDir, 'secret.key') },
      dataFolder: { list: dataDir },
      sibling: { read: join(beside, 'secret.txt') },
      throughLink: { read: join(granted, 'escape', 'secret.txt') },
      keyLink: { read: join(granted, 'key-link') },
      viaInit: { read: `/proc/1/root${beside}/secret.txt` },
      viaFd: { viaFd: granted, then: '../Beside/secret.txt' },
      // A write outside every folder fails; it never lands somewhere that vanishes with the worker.
      strayWrite: { write: join(dataDir, 'stray.txt'), text: 'x' },
      strayRoot: { write: '/stray.txt', text: 'x' },
    });
    expect(seen).toMatchObject({
      notes: 'granted notes',
      written: 'written',
      hostname: 'ENOENT',
      passwd: 'ENOENT',
      database: 'ENOENT',
      key: 'ENOENT',
      sibling: 'ENOENT',
      throughLink: 'ENOENT',
      keyLink: 'ENOENT',
      viaInit: 'ENOENT',
      viaFd: 'ENOENT',
      strayWrite: 'EROFS',
      strayRoot: 'EROFS',
    });
    // Only the packs' folders and the trash are in the data folder there.
    expect(seen.dataFolder).toEqual(['calendar', 'contacts', 'mail', 'notes', 'reminders', 'trash']);
    expect(readFileSync(join(granted, 'new.txt'), 'utf8')).toBe('made inside');
    expect(readdirSync(dataDir)).not.toContain('stray.txt');
  });

  it('gives a file tool no network, and a network tool the network (its worker has no granted folder)', async () => {
    const e = sourceProbeExecutor();
    const files = await ask(e, 'read_text', { socket: { connect: loopbackPort } });
    expect(files.socket).not.toBe('connected');
    expect(loopbackConnections).toBe(0);
    const network = await ask(e, 'web_fetch', {
      socket: { connect: loopbackPort },
      notes: { read: join(granted, 'notes.txt') },
      hostname: { read: '/etc/hostname' },
      resolver: { read: '/etc/hosts' },
      database: { read: join(dataDir, 'homebody.sqlite') },
    });
    expect(network).toMatchObject({ socket: 'connected', notes: 'ENOENT', hostname: 'ENOENT', database: 'ENOENT' });
    expect(network.resolver).toEqual(readFileSync('/etc/hosts', 'utf8'));
    expect(loopbackConnections).toBe(1);
  });

  it('granting / still hides the data folder; its packs and trash stay', async () => {
    const e = compiledProbeExecutor();
    const seen = await ask(
      e,
      'list_folder',
      {
        hostname: { read: '/etc/hostname' },
        database: { read: join(dataDir, 'homebody.sqlite') },
        key: { read: join(dataDir, 'secret.key') },
        keyLink: { read: join(granted, 'key-link') },
        dataFolder: { list: dataDir },
        trash: { write: join(trashDir, 'undo.txt'), text: 'kept' },
        strayWrite: { write: join(dataDir, 'stray.txt'), text: 'x' },
      },
      [{ path: '/', untrusted: false }],
    );
    expect(seen).toMatchObject({
      hostname: readFileSync('/etc/hostname', 'utf8'),
      database: 'ENOENT',
      key: 'ENOENT',
      keyLink: 'ENOENT',
      trash: 'written',
      strayWrite: 'EROFS',
    });
    expect(seen.dataFolder).toEqual(['calendar', 'contacts', 'mail', 'notes', 'reminders', 'trash']);
    expect(readFileSync(join(trashDir, 'undo.txt'), 'utf8')).toBe('kept');
  });

  it('granting the folder that holds the data folder (a home folder) hides it too', async () => {
    const seen = await ask(
      compiledProbeExecutor(),
      'list_folder',
      { sibling: { read: join(beside, 'secret.txt') }, key: { read: join(dataDir, 'secret.key') } },
      [{ path: work, untrusted: false }],
    );
    expect(seen).toEqual({ sibling: 'beside the grant', key: 'ENOENT' });
  });

  it("closes what Node's permission model lets through in the compiled worker, which would read it without", async () => {
    const ops = { viaFd: { viaFd: granted, then: '../Beside/secret.txt' } };
    expect(await ask(compiledProbeExecutor(), 'list_folder', ops)).toEqual({ viaFd: 'ENOENT' });
    const bare = executor({ workerPath: compiledProbe, osSandbox: 'off' });
    expect(await bare.sandbox()).toMatchObject({ kind: 'none', summary: expect.stringContaining('HOMEBODY_SANDBOX') });
    expect(await ask(bare, 'list_folder', ops)).toEqual({ viaFd: 'beside the grant' });
  });

  it('starts a new worker when the grants change, and does not show a grant that was replaced', async () => {
    const e = compiledProbeExecutor();
    const other = join(work, 'Other');
    mkdirSync(other);
    writeFileSync(join(other, 'o.txt'), 'other');
    const first = await ask(e, 'list_folder', { mine: { read: join(granted, 'notes.txt') } });
    expect(first).toEqual({ mine: 'granted notes' });
    // The new worker's sandbox has Other, not Granted (up from Other through its descriptor, past the permission model).
    const second = await ask(
      e,
      'list_folder',
      { mine: { viaFd: other, then: '../Granted/notes.txt' }, o: { read: join(other, 'o.txt') } },
      [{ path: other, untrusted: false }],
    );
    expect(second).toEqual({ mine: 'ENOENT', o: 'other' });
    // A grant bound to another folder's identity (this one was moved away and replaced) shows nothing.
    const replaced = await ask(sourceProbeExecutor(), 'list_folder', { o: { read: join(other, 'o.txt') } }, [
      { path: other, untrusted: false, identity: { dev: '1', ino: '1' } },
    ]);
    expect(replaced).toEqual({ o: 'ENOENT' });
  });
});

describe('the real worker, compiled, inside bubblewrap', () => {
  // tsc's output, as the app and the CLI run it (the integration setup builds it), reading its code from the app folder.
  const workerPath = compiled('tools/sandbox/toolWorker');
  const realWorker = (options: Partial<ExecutorOptions> = {}) =>
    executor({ workerPath, codeRoots: [REPO_ROOT], ...options });

  it('reads and writes the granted folder, refuses the link out, and runs inside bwrap', async () => {
    const e = realWorker();
    const read = await e.run('read_text', { path: join(granted, 'notes.txt') }, { roots, packs });
    expect(JSON.stringify(read.result)).toContain('granted notes');
    await e.run(
      'write_text',
      { path: join(granted, 'report.txt'), content: 'from the worker', overwrite: false },
      { roots, packs },
    );
    expect(readFileSync(join(granted, 'report.txt'), 'utf8')).toBe('from the worker');
    await expect(
      e.run('read_text', { path: join(granted, 'escape', 'secret.txt') }, { roots, packs }),
    ).rejects.toBeInstanceOf(ToolError);
    // The worker's process is bwrap's child: its command line is bwrap's, with the worker module as the command.
    // This process started it (other processes on the machine may run the same compiled worker).
    const sandboxed = readdirSync('/proc')
      .filter((pid) => /^\d+$/.test(pid))
      .flatMap((pid) => {
        try {
          const parent = /^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
          return parent === String(process.pid) ? [readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')] : [];
        } catch {
          return [];
        }
      })
      .filter((argv) => argv.includes(workerPath) && argv[0]?.endsWith('bwrap'));
    expect(sandboxed.length).toBeGreaterThan(0);
    expect(sandboxed[0]).toEqual(expect.arrayContaining(['--unshare-all', '--die-with-parent', '--new-session']));
    expect(sandboxed[0]).not.toContain('--share-net');
  });

  it('reads a Maildir and saves a draft from the network worker, which has the mail folders', async () => {
    const maildir = join(work, 'Maildir');
    for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(maildir, sub), { recursive: true });
    writeFileSync(
      join(maildir, 'cur', '1.eml:2,S'),
      'From: Eve <eve@example.org>\r\nTo: ana@example.org\r\nSubject: Ferry times\r\n' +
        'Message-ID: <ferry@example.org>\r\nDate: Tue, 1 Dec 2026 09:00:00 +0000\r\n\r\nThe ferry leaves at 7.\r\n',
    );
    const mailPacks = { ...packs, mailSource: { kind: 'maildir' as const, path: maildir } };
    const e = realWorker();
    const inbox = await e.run('mail_inbox', {}, { roots, packs: mailPacks });
    expect(JSON.stringify(inbox.result)).toContain('Ferry times');
    const draft = await e.run(
      'mail_draft',
      { to: 'eve@example.org', subject: 'Re: Ferry times', body: 'Thanks.' },
      { roots, packs: mailPacks },
    );
    expect(readdirSync(join(packs.mailDir, 'drafts'))).toHaveLength(1);
    expect(draft.undo).toMatchObject({ kind: 'remove-created' });
    // Undone by the files worker, which has the mail folder too.
    await e.undo(draft.undo!, { roots, packs: mailPacks });
    expect(readdirSync(join(packs.mailDir, 'drafts'))).toHaveLength(0);
  });

  it('reaches a loopback page from the network worker only when the egress guard allows it', async () => {
    let allow = true;
    const asked: string[] = [];
    const e = realWorker({
      services: async (request) => {
        if (request.kind === 'connection') return null;
        if (request.kind !== 'egress') throw new ToolError('UNAVAILABLE', 'no device here');
        asked.push(new URL(request.url).pathname);
        if (!allow) throw new ToolError('NETWORK_BLOCKED', 'Offline mode is on.');
        // A rule names the loopback host, so the web tools may reach it.
        return { hostNamed: true };
      },
    });
    const page = await e.run('web_fetch', { url: `${web.origin}/article` }, { roots, packs });
    expect(page.result).toMatchObject({ text: expect.stringContaining('Tagus') });
    allow = false;
    const [askedBefore, hitsBefore] = [asked.length, web.hits.length];
    await expect(e.run('web_fetch', { url: `${web.origin}/article` }, { roots, packs })).rejects.toMatchObject({
      code: 'NETWORK_BLOCKED',
    });
    // The guard was asked and refused; the server never saw the request.
    expect(asked.slice(askedBefore)).toEqual(['/article']);
    expect(web.hits.length).toBe(hitsBefore);
  });
});
