import { copyFileSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  HostEventSchema,
  type CatalogEntry,
  type HostEvent,
  type ModelState,
  type ModelsListing,
} from '../../src-shared/contract/index.js';
import { sha256File } from '../llm/download/verifyFile.js';
import { ModelServer } from '../testing/modelServer.js';
import { createHost, type HostInternals } from './createHost.js';

const MiB = 1024 * 1024;
const modelPath = inject('tinyModelPath');
let modelSha: string;
let server: ModelServer;
const hosts: HostInternals[] = [];

beforeAll(async () => {
  modelSha = await sha256File(modelPath);
  server = await ModelServer.start(modelPath, 'tiny.gguf');
});
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
  server.release();
  server.resetCounts();
});
afterAll(async () => {
  await server.close();
});

function entry(id: string, overrides: Partial<CatalogEntry> = {}): CatalogEntry {
  return {
    id,
    family: 'Tiny',
    name: `Tiny ${id}`,
    quantization: 'Q8_0',
    sizeBytes: server.size,
    sha256: modelSha,
    licence: 'Apache-2.0 (test model)',
    suits: 'Tests',
    uri: 'hf:test/tiny-GGUF/tiny.gguf',
    uriConfirmed: true,
    card: 'https://example.invalid/tiny',
    baseId: null,
    ...overrides,
  };
}

function catalogFile(entries: CatalogEntry[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'hb-cat-')), 'catalog.json');
  writeFileSync(path, JSON.stringify({ version: 1, models: entries }));
  return path;
}

async function newHost(
  dataDir: string,
  catalogPath: string,
  extra: { offline?: boolean; thinking?: 'auto' | 'on' | 'off' } = {},
): Promise<{ host: HostInternals; events: HostEvent[] }> {
  const host = await createHost({
    dataDir,
    shell: 'cli',
    loadModelOnStart: false,
    engineConfig: { gpu: false },
    catalogPath,
    huggingFaceEndpoint: `${server.origin}/`,
    ...extra,
  });
  hosts.push(host);
  // Offline mode is the default: the loopback model server is the one host downloads are allowed to reach.
  if (!extra.offline) await host.invoke('privacy.allow', { feature: 'model-download', host: '127.0.0.1' });
  const events: HostEvent[] = [];
  host.subscribe((event) => events.push(event));
  return { host, events };
}

async function until<T>(fn: () => T | undefined | false | null, what: string, timeoutMs = 60_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = fn();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const catalogOf = (listing: ModelsListing, id: string) => listing.catalog.find((c) => c.id === id);
const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

describe('models (Host)', () => {
  it('downloads a catalog model with progress, verifies it, activates it, and deletes it', async () => {
    const dataDir = tmp('hb-models-');
    const { host, events } = await newHost(dataDir, catalogFile([entry('tiny')]));
    const before = await host.invoke('models.list', {});
    expect(catalogOf(before, 'tiny')).toMatchObject({ download: null, modelId: null, sha256: modelSha });
    expect(before.models).toEqual([]);
    expect(before.modelsDir).toBe(join(dataDir, 'models'));

    const started = await host.invoke('models.download', { catalogId: 'tiny' });
    expect(started.catalogId).toBe('tiny');
    await host.models.downloads.idle();
    const listing = await host.invoke('models.list', {});
    const model = listing.models[0];
    expect(model).toMatchObject({
      name: 'Tiny tiny',
      source: 'downloaded',
      catalogId: 'tiny',
      sha256: modelSha,
      integrity: 'sha256-matched',
      sizeBytes: server.size,
      active: false,
      missing: false,
      path: join(dataDir, 'models', 'tiny.gguf'),
    });
    expect(catalogOf(listing, 'tiny')).toMatchObject({ modelId: model?.id, download: { state: 'done' } });
    expect(listing.downloads).toEqual([]);
    // Every event the Host pushed fits the contract; progress came as download.progress, changes as models.changed.
    for (const event of events) HostEventSchema.parse(event);
    const progress = events.filter((e) => e.type === 'download.progress');
    expect(progress.some((e) => e.state === 'downloading' && e.bytes > 0)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ state: 'done', bytes: server.size, totalBytes: server.size });
    expect(events.some((e) => e.type === 'models.changed' && e.listing.models.length === 1)).toBe(true);
    // Asking again is refused: it is on disk.
    await expect(host.invoke('models.download', { catalogId: 'tiny' })).rejects.toMatchObject({
      code: 'MODEL_ALREADY_PRESENT',
    });

    if (!model) throw new Error('no model');
    const state = await host.invoke('models.activate', { id: model.id });
    expect(state.status).toBe('ready');
    expect((await host.invoke('models.list', {})).models[0]?.active).toBe(true);

    const removed = await host.invoke('models.remove', { id: model.id });
    expect(removed).toMatchObject({ deletedFile: true, message: expect.stringMatching(/^Deleted Tiny tiny/) });
    expect(existsSync(model.path)).toBe(false);
    expect(host.engine.state.status).toBe('none');
    const after = await host.invoke('models.list', {});
    expect(after.models).toEqual([]);
    expect(catalogOf(after, 'tiny')).toMatchObject({ download: null, modelId: null });
  });

  it('fails a wrong sha256 clearly, keeps no file, and never opens it', async () => {
    const dataDir = tmp('hb-models-');
    const wrong = '0'.repeat(64);
    const { host, events } = await newHost(dataDir, catalogFile([entry('bad', { sha256: wrong })]));
    const { id } = await host.invoke('models.download', { catalogId: 'bad' });
    await host.models.downloads.idle();
    const listing = await host.invoke('models.list', {});
    const download = listing.downloads.find((d) => d.id === id);
    expect(download?.state).toBe('failed');
    expect(download?.error?.code).toBe('CHECKSUM_MISMATCH');
    expect(download?.error?.message).toContain(`its sha256 is ${modelSha}, expected ${wrong}`);
    expect(listing.models).toEqual([]);
    expect(readdirSync(join(dataDir, 'models')).filter((f) => f.endsWith('.gguf'))).toEqual([]);
    expect(events.some((e) => e.type === 'model.state')).toBe(false);
    expect(host.engine.state.status).toBe('none');
    // A partial or unverified download is never opened, even by path.
    await expect(
      host.invoke('model.open', { path: join(dataDir, 'models', '.downloads', id, 'tiny.gguf') }),
    ).rejects.toMatchObject({ code: 'MODEL_UNREADABLE' });
    // Retrying checks again and fails the same way.
    await host.invoke('models.download', { catalogId: 'bad' });
    await host.models.downloads.idle();
    expect(host.models.downloads.get(id)?.error?.code).toBe('CHECKSUM_MISMATCH');
    expect(await host.invoke('models.cancel', { id })).toMatchObject({ state: 'cancelled' });
  });

  it('resumes a download after a restart (a new Host on the same data folder) without fetching its bytes again', async () => {
    const dataDir = tmp('hb-models-');
    const catalog = catalogFile([entry('tiny')]);
    const first = await newHost(dataDir, catalog);
    server.stallAfter(20 * MiB);
    const { id } = await first.host.invoke('models.download', { catalogId: 'tiny' });
    await until(() => server.rangedBytes >= 20 * MiB, 'the stall');
    await new Promise((r) => setTimeout(r, 300));
    const paused = await first.host.invoke('models.pause', { id });
    expect(paused.state).toBe('paused');
    await first.host.dispose();
    server.release();
    server.resetCounts();

    const second = await newHost(dataDir, catalog);
    const listed = catalogOf(await second.host.invoke('models.list', {}), 'tiny')?.download;
    expect(listed).toMatchObject({ id, state: 'paused' });
    expect(listed?.bytes).toBeGreaterThan(10 * MiB);
    // Download again = resume the unfinished one.
    const resumed = await second.host.invoke('models.download', { catalogId: 'tiny' });
    expect(resumed.id).toBe(id);
    await second.host.models.downloads.idle();
    const model = (await second.host.invoke('models.list', {})).models[0];
    expect(model).toMatchObject({ integrity: 'sha256-matched', sha256: modelSha });
    expect(server.rangedBytes).toBeLessThan(server.size - 10 * MiB);
    expect(server.rangedBytes).toBeGreaterThan(0);
  });

  it('lists a download interrupted by a quit as paused after the restart', async () => {
    const dataDir = tmp('hb-models-');
    const catalog = catalogFile([entry('tiny')]);
    const first = await newHost(dataDir, catalog);
    server.stallAfter(20 * MiB);
    const { id } = await first.host.invoke('models.download', { catalogId: 'tiny' });
    await until(() => server.rangedBytes >= 20 * MiB, 'the stall');
    await first.host.dispose();
    server.release();
    const second = await newHost(dataDir, catalog);
    expect(second.host.models.downloads.get(id)?.state).toBe('paused');
    await second.host.invoke('models.resume', { id });
    await second.host.models.downloads.idle();
    expect(second.host.models.downloads.get(id)?.state).toBe('done');
  });

  it('cancels a download and deletes its partial file', async () => {
    const dataDir = tmp('hb-models-');
    const { host } = await newHost(dataDir, catalogFile([entry('tiny')]));
    server.stallAfter(20 * MiB);
    const { id } = await host.invoke('models.download', { catalogId: 'tiny' });
    const staging = join(dataDir, 'models', '.downloads', id);
    await until(() => existsSync(join(staging, 'tiny.gguf.ipull')), 'the partial file');
    expect(await host.invoke('models.cancel', { id })).toMatchObject({ state: 'cancelled', bytes: 0 });
    expect(existsSync(staging)).toBe(false);
    const listing = await host.invoke('models.list', {});
    expect(catalogOf(listing, 'tiny')?.download).toBeNull();
    expect(listing.downloads).toEqual([]);
  });

  it('adds a GGUF from disk, refuses what is not one, and only forgets it when removed', async () => {
    const dataDir = tmp('hb-models-');
    const { host } = await newHost(dataDir, catalogFile([]));
    const dir = tmp('hb-add-');
    const notes = join(dir, 'notes.gguf');
    writeFileSync(notes, 'these are my notes, not a model');
    await expect(host.invoke('models.add', { path: notes })).rejects.toMatchObject({ code: 'MODEL_NOT_GGUF' });
    await expect(host.invoke('models.add', { path: join(dir, 'gone.gguf') })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
    });
    const mine = join(dir, 'mine.gguf');
    copyFileSync(modelPath, mine);
    const added = await host.invoke('models.add', { path: mine });
    expect(added).toMatchObject({ path: mine, source: 'added', integrity: 'unchecked', sha256: null, catalogId: null });
    await expect(host.invoke('models.add', { path: mine })).rejects.toMatchObject({ code: 'MODEL_ALREADY_PRESENT' });
    const verified = await host.invoke('models.verify', { id: added.id });
    expect(verified).toMatchObject({ sha256: modelSha, integrity: 'unchecked' });

    const removed = await host.invoke('models.remove', { id: added.id });
    expect(removed.deletedFile).toBe(false);
    expect(removed.message).toMatch(/the file itself was left where it is/);
    expect(existsSync(mine)).toBe(true);
    expect((await host.invoke('models.list', {})).models).toEqual([]);
  });

  it('lists a model opened by its path as the one in use, and keeps it in use when a change to a bad file fails', async () => {
    const dataDir = tmp('hb-models-');
    const { host } = await newHost(dataDir, catalogFile([]));
    const dir = tmp('hb-open-');
    const mine = join(dir, 'mine.gguf');
    copyFileSync(modelPath, mine);
    expect((await host.invoke('model.open', { path: mine })).status).toBe('ready');
    // Opened as `--model` or a typed path opens it, never added: the Models and Evaluation pages still show it.
    await until(() => host.store.models.models.byPath(mine), 'the opened model to be listed');
    const { models } = await host.invoke('models.list', {});
    expect(models).toEqual([expect.objectContaining({ path: mine, source: 'added', active: true })]);

    const notes = join(dir, 'notes.gguf');
    writeFileSync(notes, 'these are my notes, not a model');
    await expect(host.invoke('model.open', { path: notes })).rejects.toMatchObject({
      code: 'MODEL_NOT_GGUF',
      message: expect.stringContaining('is still the model in use'),
    });
    const state = await host.invoke('model.state', {});
    expect(state).toMatchObject({ status: 'ready', info: { path: mine } });
    // What a reload shows: the same model, listed and in use; the bad file was never listed.
    expect((await host.invoke('models.list', {})).models.map((m) => [m.path, m.active])).toEqual([[mine, true]]);
  });

  it("keeps each model's thinking choice across a restart, gives the loaded model's to the engine, forgets it with the model", async () => {
    const dataDir = tmp('hb-models-');
    const { host, events } = await newHost(dataDir, catalogFile([]));
    const mine = join(tmp('hb-add-'), 'mine.gguf');
    copyFileSync(modelPath, mine);
    const added = await host.invoke('models.add', { path: mine });
    expect(added.thinking).toBe('auto');
    await expect(
      host.invoke('models.setThinking', { id: added.id, thinking: 'sometimes' as 'on' }),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(host.invoke('models.setThinking', { id: 'nope', thinking: 'off' })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
    });
    expect(await host.invoke('models.setThinking', { id: added.id, thinking: 'off' })).toMatchObject({
      thinking: 'off',
    });
    const changed = events.filter((e) => e.type === 'models.changed').at(-1);
    expect(changed?.type === 'models.changed' && changed.listing.models[0]?.thinking).toBe('off');
    await host.dispose();

    const { host: again } = await newHost(dataDir, catalogFile([]));
    expect((await again.invoke('models.list', {})).models[0]?.thinking).toBe('off');
    await again.invoke('models.activate', { id: added.id });
    expect(again.modelSettings.loadSettings().thinking).toBe('off');
    await again.invoke('models.remove', { id: added.id });
    const readded = await again.invoke('models.add', { path: mine });
    expect(readded.thinking).toBe('auto');
    await again.invoke('models.setThinking', { id: readded.id, thinking: 'off' });
    await again.dispose();

    // `homebody run --thinking on`: this run's choice wins over the saved one, which stays as it was.
    const { host: run } = await newHost(dataDir, catalogFile([]), { thinking: 'on' });
    await run.invoke('models.activate', { id: readded.id });
    expect(run.modelSettings.loadSettings().thinking).toBe('on');
    expect((await run.invoke('models.list', {})).models[0]?.thinking).toBe('off');
  });

  it('answers specific errors: unknown catalog entry, unknown download or model, bad URI, offline', async () => {
    const dataDir = tmp('hb-models-');
    const { host } = await newHost(dataDir, catalogFile([entry('tiny')]), { offline: true });
    await expect(host.invoke('models.download', { catalogId: 'nope' })).rejects.toMatchObject({
      code: 'UNKNOWN_CATALOG_ENTRY',
      message: 'There is no model "nope" in the catalog.',
    });
    await expect(host.invoke('models.pause', { id: 'nope' })).rejects.toMatchObject({ code: 'DOWNLOAD_NOT_FOUND' });
    await expect(host.invoke('models.remove', { id: 'nope' })).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    await expect(host.invoke('models.activate', { id: 'nope' })).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    await expect(host.invoke('models.download', { uri: 'file:///etc/passwd' })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
    // Offline: refused before any connection, and the attempt is on the ledger.
    await expect(host.invoke('models.download', { catalogId: 'tiny' })).rejects.toMatchObject({
      code: 'NETWORK_BLOCKED',
      message: expect.stringMatching(/offline/),
    });
    expect(server.requests).toEqual([]);
    expect((await host.invoke('privacy.ledger', {})).events).toEqual([
      expect.objectContaining({ allowed: false, source: 'model download: Tiny tiny', host: '127.0.0.1' }),
    ]);
    expect((await host.invoke('models.list', {})).downloads).toEqual([]);
  });

  it('says when an unconfirmed catalog address is not found', async () => {
    const dataDir = tmp('hb-models-');
    const { host } = await newHost(
      dataDir,
      catalogFile([entry('guess', { uri: 'hf:test/tiny-GGUF/other.gguf', uriConfirmed: false })]),
    );
    const { id } = await host.invoke('models.download', { catalogId: 'guess' });
    await host.models.downloads.idle();
    const failed = host.models.downloads.get(id);
    expect(failed?.state).toBe('failed');
    expect(failed?.error?.code).toBe('DOWNLOAD_FAILED');
    expect(failed?.error?.message).toMatch(/HTTP 404.*not been confirmed.*catalog\.json/);
  });

  it('refuses to activate a downloaded model whose file changed since it was verified', async () => {
    const dataDir = tmp('hb-models-');
    const { host, events } = await newHost(dataDir, catalogFile([entry('tiny')]));
    await host.invoke('models.download', { catalogId: 'tiny' });
    await host.models.downloads.idle();
    const model = (await host.invoke('models.list', {})).models[0];
    if (!model) throw new Error('no model');
    writeFileSync(model.path, 'tampered');
    await expect(host.invoke('models.activate', { id: model.id })).rejects.toMatchObject({
      code: 'CHECKSUM_MISMATCH',
    });
    expect((await host.invoke('models.list', {})).models[0]?.integrity).toBe('mismatch');
    await expect(host.invoke('model.open', { path: model.path })).rejects.toMatchObject({ code: 'CHECKSUM_MISMATCH' });
    const loads = events.filter((e): e is Extract<HostEvent, { type: 'model.state' }> => e.type === 'model.state');
    expect(loads.map((e) => (e.state as ModelState).status)).toEqual([]);
  });
});
