import { describe, expect, it, vi } from 'vitest';
import type { CatalogModel, Download, LocalModel, ModelsListing } from '../../src-shared/contract/index.js';
import { ApiCallError } from '../bridge/apiError.js';
import { createAppStore } from './createAppStore.js';
import { reduceEvent } from './eventReducer.js';
import { selectMainView } from './selectors.js';
import {
  applyDownloadProgress,
  downloadControls,
  downloadFraction,
  formatDownloadProgress,
  formatTimeLeft,
  type DownloadProgressEvent,
} from './modelsView.js';
import { deferred, fakeApi, memoryStorage } from '../testing/testFixtures.js';

function makeDownload(overrides: Partial<Download> = {}): Download {
  return {
    id: 'd1',
    catalogId: 'botpsy-q8',
    uri: 'http://127.0.0.1:9/botpsy.gguf',
    fileName: 'botpsy.gguf',
    path: '/data/models/botpsy.gguf',
    state: 'downloading',
    bytes: 0,
    totalBytes: 341_000_000,
    bytesPerSecond: 0,
    etaSeconds: null,
    expectedSizeBytes: 341_000_000,
    expectedSha256: null,
    error: null,
    modelId: null,
    createdAt: 1,
    updatedAt: 1,
    ...overrides,
  };
}

function makeEntry(download: Download | null, overrides: Partial<CatalogModel> = {}): CatalogModel {
  return {
    id: 'botpsy-q8',
    family: 'BotPsy 0.8B',
    name: 'BotPsy 0.8B Q8',
    quantization: 'Q8_0',
    sizeBytes: 341_000_000,
    sha256: null,
    licence: 'Apache-2.0',
    suits: 'The default',
    uri: 'http://127.0.0.1:9/botpsy.gguf',
    uriConfirmed: true,
    card: 'https://example.org/botpsy',
    baseId: null,
    download,
    modelId: null,
    ...overrides,
  };
}

function makeModel(overrides: Partial<LocalModel> = {}): LocalModel {
  return {
    id: 'm1',
    path: '/data/models/botpsy.gguf',
    name: 'BotPsy 0.8B Q8',
    sizeBytes: 341_000_000,
    source: 'downloaded',
    catalogId: 'botpsy-q8',
    sha256: null,
    integrity: 'size-matched',
    active: false,
    missing: false,
    addedAt: 1,
    ...overrides,
  };
}

function listing(download: Download | null, models: LocalModel[] = []): ModelsListing {
  return {
    catalog: [makeEntry(download)],
    models,
    downloads: download && download.state !== 'done' ? [download] : [],
    modelsDir: '/data/models',
  };
}

function progress(overrides: Partial<DownloadProgressEvent> = {}): DownloadProgressEvent {
  return {
    type: 'download.progress',
    id: 'd1',
    catalogId: 'botpsy-q8',
    bytes: 12_300_000,
    totalBytes: 341_000_000,
    bytesPerSecond: 4_100_000,
    etaSeconds: 80,
    state: 'downloading',
    error: null,
    ...overrides,
  };
}

describe('download progress words', () => {
  it('says bytes, speed and time left while downloading', () => {
    expect(formatDownloadProgress(progress({ etaSeconds: 62 }))).toBe('12.3 MB of 341 MB · 4.1 MB/s · 1 min left');
  });

  it('leaves out what is not known or not moving', () => {
    expect(formatDownloadProgress(progress({ totalBytes: null, etaSeconds: null }))).toBe('12.3 MB so far · 4.1 MB/s');
    expect(formatDownloadProgress(progress({ state: 'paused', bytesPerSecond: 0, etaSeconds: null }))).toBe(
      '12.3 MB of 341 MB',
    );
    expect(formatDownloadProgress(progress({ bytes: 0, bytesPerSecond: 0, etaSeconds: null }))).toBe('0 B of 341 MB');
  });

  it('rounds the time left to what a person reads', () => {
    expect(formatTimeLeft(null)).toBeNull();
    expect(formatTimeLeft(-1)).toBeNull();
    expect(formatTimeLeft(4.4)).toBe('4 s left');
    expect(formatTimeLeft(59.4)).toBe('59 s left');
    expect(formatTimeLeft(150)).toBe('3 min left');
    expect(formatTimeLeft(3600)).toBe('1 h left');
    expect(formatTimeLeft(3900)).toBe('1 h 5 min left');
  });

  it('gives a fraction only when the size is known', () => {
    expect(downloadFraction({ bytes: 50, totalBytes: 200, state: 'downloading' })).toBe(0.25);
    expect(downloadFraction({ bytes: 50, totalBytes: null, state: 'downloading' })).toBeNull();
    expect(downloadFraction({ bytes: 300, totalBytes: 200, state: 'verifying' })).toBe(1);
  });
});

describe('download controls', () => {
  it('offers what each state allows', () => {
    expect(downloadControls(null, false)).toEqual(['download']);
    expect(downloadControls(null, true)).toEqual([]);
    expect(downloadControls({ state: 'queued' }, false)).toEqual(['pause', 'cancel']);
    expect(downloadControls({ state: 'downloading' }, false)).toEqual(['pause', 'cancel']);
    expect(downloadControls({ state: 'paused' }, false)).toEqual(['resume', 'cancel']);
    expect(downloadControls({ state: 'failed' }, false)).toEqual(['retry', 'cancel']);
    expect(downloadControls({ state: 'verifying' }, false)).toEqual([]);
    expect(downloadControls({ state: 'done' }, true)).toEqual([]);
    expect(downloadControls({ state: 'cancelled' }, false)).toEqual(['download']);
  });
});

describe('models events', () => {
  it('applies progress to the download and its catalog entry', () => {
    const before = listing(makeDownload());
    const after = applyDownloadProgress(before, progress());
    expect(after?.downloads[0]).toMatchObject({ bytes: 12_300_000, bytesPerSecond: 4_100_000, etaSeconds: 80 });
    expect(after?.catalog[0]?.download).toMatchObject({ bytes: 12_300_000, state: 'downloading' });
    expect(before.downloads[0]?.bytes).toBe(0);
  });

  it('ignores progress for a download the listing does not know', () => {
    expect(applyDownloadProgress(listing(null), progress())).toBeNull();
  });

  it('moves through downloading, paused by a dropped connection, failed and a whole new listing', () => {
    const store = createAppStore({ api: fakeApi(), storage: memoryStorage() });
    store.getState().applyEvent(progress());
    expect(store.getState().modelsListing).toBeNull();

    store.getState().applyEvent({ type: 'models.changed', listing: listing(makeDownload()) });
    store.getState().applyEvent(progress());
    expect(store.getState().modelsListing?.catalog[0]?.download?.state).toBe('downloading');

    const dropped = { code: 'DOWNLOAD_FAILED' as const, message: 'The connection dropped; resume to continue.' };
    store.getState().applyEvent(progress({ state: 'paused', bytesPerSecond: 0, etaSeconds: null, error: dropped }));
    expect(store.getState().modelsListing?.catalog[0]?.download).toMatchObject({ state: 'paused', error: dropped });

    const mismatch = { code: 'CHECKSUM_MISMATCH' as const, message: 'Expected sha256 aaaa, got bbbb.' };
    store.getState().applyEvent(progress({ state: 'failed', error: mismatch }));
    expect(store.getState().modelsListing?.downloads[0]).toMatchObject({ state: 'failed', error: mismatch });

    const done = listing(makeDownload({ state: 'done', modelId: 'm1' }), [makeModel()]);
    store.getState().applyEvent({ type: 'models.changed', listing: done });
    expect(store.getState().modelsListing).toBe(done);
    expect(reduceEvent(store.getState(), { type: 'models.changed', listing: done })).toEqual({
      modelsListing: done,
      modelsError: null,
    });
  });
});

describe('models actions', () => {
  it('keeps a listing an event brought while models.list was in flight', async () => {
    const answer = deferred<ModelsListing>();
    const store = createAppStore({
      api: fakeApi({ 'models.list': () => answer.promise }),
      storage: memoryStorage(),
    });
    const load = store.getState().loadModels();
    const fromEvent = listing(makeDownload({ bytes: 99 }));
    store.getState().applyEvent({ type: 'models.changed', listing: fromEvent });
    answer.resolve(listing(null));
    await load;
    expect(store.getState().modelsListing).toBe(fromEvent);
    expect(store.getState().modelsLoading).toBe(false);
  });

  it('shows a failed call in place under its key, and clears it on the next try', async () => {
    const download = vi
      .fn()
      .mockRejectedValueOnce(new ApiCallError('NETWORK_BLOCKED', 'Offline mode is on.'))
      .mockResolvedValueOnce(makeDownload());
    const store = createAppStore({ api: fakeApi({ 'models.download': download }), storage: memoryStorage() });
    const first = store.getState().downloadModel('botpsy-q8');
    expect(store.getState().modelsPending.has('download:botpsy-q8')).toBe(true);
    expect(await first).toMatchObject({ code: 'NETWORK_BLOCKED' });
    expect(store.getState().modelsActionErrors['botpsy-q8']?.message).toBe('Offline mode is on.');
    expect(store.getState().modelsPending.size).toBe(0);

    expect(await store.getState().downloadModel('botpsy-q8')).toBeNull();
    expect(store.getState().modelsActionErrors['botpsy-q8']).toBeUndefined();
  });

  it('refuses an empty path before asking the Host', async () => {
    const add = vi.fn();
    const store = createAppStore({ api: fakeApi({ 'models.add': add }), storage: memoryStorage() });
    const outcome = await store.getState().addModel('   ');
    expect(outcome.ok).toBe(false);
    expect(add).not.toHaveBeenCalled();
    expect(store.getState().modelsActionErrors['add']?.code).toBe('INVALID_REQUEST');
  });

  it('reports a model that failed to load after activation beside that model', async () => {
    const error = { code: 'MODEL_LOAD_FAILED' as const, message: 'Not enough memory to load it.' };
    const store = createAppStore({
      api: fakeApi({ 'models.activate': async () => ({ status: 'error', path: '/m.gguf', error }) }),
      storage: memoryStorage(),
    });
    expect(await store.getState().activateModel('m1')).toEqual(error);
    expect(store.getState().modelsActionErrors['m1']).toEqual(error);
  });
});

describe('switching models', () => {
  it('keeps an open task writable while another model loads, and read-only when none is coming', () => {
    const store = createAppStore({ api: fakeApi(), storage: memoryStorage() });
    store.setState({
      initialized: true,
      openTaskId: 't1',
      modelState: { status: 'loading', path: '/b.gguf', progress: 0.4 },
    });
    expect(selectMainView(store.getState())).toBe('chat');
    store.setState({ modelState: { status: 'none' } });
    expect(selectMainView(store.getState())).toBe('readonly');
    store.setState({ openTaskId: null, modelState: { status: 'loading', path: '/b.gguf', progress: 0.4 } });
    expect(selectMainView(store.getState())).toBe('onboarding');
  });
});
