import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { HostEvent, StorageReport } from '../../src-shared/contract/index.js';
import { createHost, type HostInternals } from './createHost.js';
import { scriptedEngines } from '../testing/scriptedEngine.js';
import { COMPILED_TOOL_WORKER } from '../testing/compiledApp.js';
import { settledReply } from '../testing/settledTask.js';

// A real Host on a real store in a temp folder, the generated model, the real tool worker: a session leaves data in
// every place Homebody keeps it, then "delete all my data" must leave none of it.
const MARKER = 'quokka-marmalade-5e71c2';
const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-privacy-')));
const dataDir = join(work, 'data');
const ownContacts = join(work, 'My contacts');
mkdirSync(ownContacts);
writeFileSync(join(ownContacts, 'ana.vcf'), 'BEGIN:VCARD\nVERSION:3.0\nFN:Ana\nEND:VCARD\n');

const PROMPTS = {
  first: `write in my Ferry note that the code is ${MARKER}`,
  second: 'add the boarding time to my Ferry note',
};
const scripts = {
  [PROMPTS.first]: [{ name: 'note_write', params: `{"title": "Ferry", "text": "code ${MARKER}"}` }],
  // Adding to a note keeps its old version in the trash, for undo.
  [PROMPTS.second]: [{ name: 'note_write', params: '{"title": "Ferry", "text": "boarding 07:40"}' }],
};

let host: HostInternals;
const events: HostEvent[] = [];
beforeAll(async () => {
  host = await createHost({
    toolWorker: COMPILED_TOOL_WORKER,
    dataDir,
    shell: 'cli',
    loadModelOnStart: false,
    engineConfig: { gpu: false, contextSize: 8192 },
    reply: { maxTokens: 96, temperature: 0 },
    createEngine: scriptedEngines(scripts),
  });
  host.subscribe((event) => events.push(event));
  expect((await host.invoke('model.open', { path: inject('tinyModelPath') })).status).toBe('ready');
});
afterAll(() => host.dispose());

async function ask(prompt: string): Promise<string> {
  const off = host.subscribe((event) => {
    if (event.type === 'toolcall.updated' && event.call.state === 'pending' && event.call.gate === 'prompt') {
      void host.call('toolcalls.answer', { id: event.call.id, answer: 'allow-once', reason: null });
    }
  });
  try {
    const sent = await host.invoke('chat.send', { taskId: null, text: prompt });
    await settledReply(host, sent.taskId);
    return sent.taskId;
  } finally {
    off();
  }
}

function tableCounts(): Record<string, number> {
  return host.store.rowCounts();
}

function databaseBytes(): string {
  return ['', '-wal']
    .map((suffix) => host.store.path + suffix)
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('');
}

/** Every file under `path` (itself when it is one); none when it is missing. */
function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

const item = (report: StorageReport, id: string) => report.items.find((i) => i.id === id);

describe('privacy storage and "delete all my data"', () => {
  const downloadedModel = join(dataDir, 'models', 'botpsy-q8.gguf');

  it('a session leaves data in every place the storage report lists, with real sizes', async () => {
    await ask(PROMPTS.first);
    await ask(PROMPTS.second);
    await host.invoke('packs.setSettings', {
      contactsDir: ownContacts,
      smtp: { host: 'smtp.example.org', port: 465, secure: true, user: 'ana', from: 'ana@example.org' },
      smtpPassword: `pw-${MARKER}`,
    });
    await host.invoke('policy.grantFolder', { path: ownContacts, untrusted: false });
    await host.invoke('privacy.setNetwork', {
      offline: false,
      rules: [{ feature: 'web', host: 'search.example.org' }],
    });
    await host.invoke('mcp.add', {
      server: { name: 'tokens', transport: { kind: 'stdio', command: 'node', args: [], env: { TOKEN: MARKER } } },
    });
    // A downloaded model and its download record, as a finished download leaves them.
    mkdirSync(join(dataDir, 'models'), { recursive: true });
    writeFileSync(downloadedModel, Buffer.alloc(4096, 7));
    host.store.models.models.insert({
      id: 'model-q8',
      path: downloadedModel,
      name: 'BotPsy Q8',
      sizeBytes: 4096,
      source: 'downloaded',
      catalogId: null,
      sha256: null,
      integrity: 'size-matched',
      addedAt: 1,
    });
    host.store.models.downloads.insert({
      id: 'download-q8',
      catalogId: null,
      uri: 'https://models.example/botpsy-q8.gguf',
      fileName: 'botpsy-q8.gguf',
      path: downloadedModel,
      stagingDir: join(dataDir, 'models', '.downloads', 'download-q8'),
      state: 'done',
      bytes: 4096,
      totalBytes: 4096,
      expectedSizeBytes: 4096,
      expectedSha256: null,
      error: null,
      modelId: 'model-q8',
      createdAt: 1,
      updatedAt: 1,
    });
    writeFileSync(join(dataDir, 'secret.key'), Buffer.alloc(32, 1), { mode: 0o600 });

    const report = await host.invoke('privacy.storage', {});
    expect(report.dataDir).toBe(dataDir);
    const database = item(report, 'database')!;
    const onDisk = ['', '-wal', '-shm'].reduce(
      (sum, suffix) => sum + (existsSync(host.store.path + suffix) ? statSync(host.store.path + suffix).size : 0),
      0,
    );
    expect(database).toMatchObject({ path: host.store.path, bytes: onDisk, deletedWithData: true });
    expect(item(report, 'notes')).toMatchObject({ path: join(dataDir, 'notes'), deletedWithData: true });
    expect(item(report, 'notes')!.bytes).toBe(
      readdirSync(join(dataDir, 'notes')).reduce((sum, f) => sum + statSync(join(dataDir, 'notes', f)).size, 0),
    );
    expect(item(report, 'notes')!.bytes).toBeGreaterThan(0);
    expect(item(report, 'trash')!.bytes).toBeGreaterThan(0);
    expect(item(report, 'models')).toMatchObject({ bytes: 4096, deletedWithData: false });
    expect(item(report, 'secret-key')).toMatchObject({ bytes: 32, deletedWithData: true });
    // The user's own folder is listed with its size, and kept.
    expect(item(report, 'contacts')).toMatchObject({ path: ownContacts, deletedWithData: false });
    expect(item(report, 'contacts')!.bytes).toBe(statSync(join(ownContacts, 'ana.vcf')).size);
    // The contacts folder used before another was chosen goes with the data.
    expect(item(report, 'contacts-default')).toMatchObject({ path: join(dataDir, 'contacts'), deletedWithData: true });
    // Everything in the data folder belongs to a place the report names.
    expect(item(report, 'other')).toBeUndefined();
    expect(report.totalBytes).toBe(report.items.reduce((sum, i) => sum + i.bytes, 0));
    expect(report.secrets.protection).toBe('key-file');

    expect(databaseBytes()).toContain(MARKER);
  });

  it('refuses a wrong confirmation and deletes nothing', async () => {
    const before = tableCounts();
    const refused = await host.call('privacy.deleteAllData', { confirm: 'delete everything', includeModels: true });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    expect(tableCounts()).toEqual(before);
    expect(existsSync(join(dataDir, 'notes'))).toBe(true);
  });

  it('refuses while an action that cannot be undone is running, and deletes nothing', async () => {
    const before = tableCounts();
    host.store.toolCalls.insert({
      id: 'sending',
      taskId: null,
      tool: 'mail_send',
      args: {},
      description: { title: 'Send', summary: 'Send a mail', details: [] },
      risk: 'irreversible',
      gate: 'queue',
      state: 'executing',
      taint: [],
      now: 1,
    });
    const refused = await host.call('privacy.deleteAllData', { confirm: 'delete my data', includeModels: false });
    expect(refused).toMatchObject({ ok: false, error: { code: 'TASK_BUSY' } });
    expect((refused as { error: { message: string } }).error.message).toContain('mail_send');
    host.store.toolCalls.finish('sending', { state: 'done', now: 2 });
    expect(tableCounts().tasks).toBe(before.tasks);
    expect(existsSync(join(dataDir, 'trash'))).toBe(true);
  });

  it('deletes every row and file of the user, keeps the models, and a new chat works right after', async () => {
    const before = await host.invoke('privacy.storage', {});
    // The downloaded model and the one in use (opened by its path, so listed too) stay listed: models are kept.
    const modelsBefore = tableCounts().models;
    expect(modelsBefore).toBe(2);
    events.length = 0;
    const result = await host.invoke('privacy.deleteAllData', { confirm: 'delete my data', includeModels: false });

    expect(result.removed).toEqual(
      expect.arrayContaining(['History database', 'Notes folder', 'Undo copies', 'Secret key']),
    );
    expect(result.removed).not.toContain('Downloaded models');
    expect(result.removed).not.toContain('Contacts folder');
    expect(result.deletedBytes).toBeGreaterThan(item(before, 'notes')!.bytes + item(before, 'trash')!.bytes);
    expect(events.map((e) => e.type)).toContain('privacy.dataDeleted');

    const counts = tableCounts();
    for (const [table, n] of Object.entries(counts)) {
      const expected =
        table === 'models' ? modelsBefore : table === 'model_downloads' || table === 'audit_events' ? 1 : 0;
      expect({ table, n }).toEqual({ table, n: expected });
    }
    // The one audit row left says that everything was deleted, and nothing of what was.
    expect(host.store.audit.page(Number.MAX_SAFE_INTEGER, 10)).toEqual([
      expect.objectContaining({ kind: 'data-deleted', actor: 'user', detail: null }),
    ]);
    expect(databaseBytes()).not.toContain(MARKER);
    // A pack folder may be made again, empty, as soon as a tool or the reminders need it.
    for (const place of ['notes', 'trash', 'reminders', 'prefix-cache', 'calendar', 'contacts', 'mail', 'secret.key']) {
      expect({ place, files: filesUnder(join(dataDir, place)) }).toEqual({ place, files: [] });
    }
    expect(existsSync(downloadedModel)).toBe(true);
    expect(readdirSync(ownContacts)).toEqual(['ana.vcf']);

    // In memory too, the Host holds nothing of before.
    expect(host.policy().folders).toEqual([]);
    expect(await host.invoke('privacy.network', {})).toMatchObject({ offline: true, rules: [] });
    expect(host.egress.offline).toBe(true);
    expect((await host.invoke('mcp.list', {})).servers).toEqual([]);
    const packs = await host.invoke('packs.settings', {});
    expect(packs).toMatchObject({ smtp: null, smtpPasswordSet: false, contactsDir: '' });
    expect((await host.invoke('tasks.list', {})).tasks).toEqual([]);
    // The loaded model is not user data: it stays loaded.
    expect(host.engine.state.status).toBe('ready');

    const after = await host.invoke('privacy.storage', {});
    expect(item(after, 'database')!.bytes).toBeLessThan(item(before, 'database')!.bytes);
    expect(item(after, 'notes')!.bytes).toBe(0);

    const taskId = await ask('hello again');
    const detail = await host.invoke('tasks.get', { taskId });
    expect(detail.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(detail.messages[1]!.state).not.toBe('failed');
  });

  it('deletes the downloaded models too when asked', async () => {
    const result = await host.invoke('privacy.deleteAllData', { confirm: 'delete my data', includeModels: true });
    expect(result.removed).toContain('Downloaded models');
    expect(existsSync(join(dataDir, 'models'))).toBe(false);
    expect(tableCounts()).toMatchObject({ models: 0, model_downloads: 0, tasks: 0, messages: 0 });
    expect((await host.invoke('models.list', {})).models).toEqual([]);
    // The model loaded from outside the models folder stays loaded.
    expect(host.engine.state.status).toBe('ready');
  });
});
