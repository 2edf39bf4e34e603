import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Download } from '../../../src-shared/contract/index.js';
import { EgressGuard } from '../../privacy/egressGuard.js';
import { MemoryEgressLedger } from '../../privacy/egressLedger.js';
import { compiled, REPO_ROOT } from '../../testing/compiledApp.js';
import { ModelServer, type ModelServerOptions } from '../../testing/modelServer.js';
import {
  DownloadManager,
  type DownloadPatch,
  type DownloadProgressEvent,
  type DownloadRecord,
  type DownloadRecordStore,
} from './downloadManager.js';
import { isDownloaderError } from './fileDownload.js';
import { partialBytesOnDisk, partialPathOf } from './partialFile.js';
import { sha256File, type Verified } from './verifyFile.js';

const MiB = 1024 * 1024;

/** The store's repository, in memory. */
class MemoryRecords implements DownloadRecordStore {
  readonly rows = new Map<string, DownloadRecord>();
  insert(record: DownloadRecord) {
    this.rows.set(record.id, { ...record });
  }
  update(id: string, patch: DownloadPatch) {
    const row = this.rows.get(id);
    if (row) this.rows.set(id, { ...row, ...patch });
  }
  get(id: string) {
    const row = this.rows.get(id);
    return row ? { ...row } : undefined;
  }
  list() {
    return [...this.rows.values()].sort((a, b) => b.createdAt - a.createdAt).map((r) => ({ ...r }));
  }
}

let modelPath: string;
let modelSha: string;
const dirs: string[] = [];
const servers: ModelServer[] = [];
const managers: DownloadManager[] = [];

beforeAll(async () => {
  modelPath = inject('tinyModelPath');
  modelSha = await sha256File(modelPath);
});

afterEach(async () => {
  for (const m of managers.splice(0)) await m.dispose();
  for (const s of servers.splice(0)) await s.close();
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function serve(options: ModelServerOptions = {}) {
  const server = await ModelServer.start(modelPath, 'tiny.gguf', options);
  servers.push(server);
  return server;
}

function setup(
  options: {
    offline?: boolean;
    records?: MemoryRecords;
    modelsDir?: string;
    endpoint?: string;
    progressIntervalMs?: number;
    now?: () => number;
  } = {},
) {
  const modelsDir = options.modelsDir ?? join(mkdtempSync(join(tmpdir(), 'hb-dl-')), 'models');
  dirs.push(modelsDir);
  const records = options.records ?? new MemoryRecords();
  // Offline (the default) with the one rule the loopback model server needs, or none at all.
  const ledger = new MemoryEgressLedger();
  const guard = new EgressGuard({
    sink: ledger,
    settings: { offline: true, rules: options.offline ? [] : [{ feature: 'model-download', host: '127.0.0.1' }] },
  });
  const adopted: Array<{ record: DownloadRecord; verified: Verified }> = [];
  const events: DownloadProgressEvent[] = [];
  const manager = new DownloadManager({
    modelsDir,
    records,
    guard,
    ...(options.endpoint ? { huggingFaceEndpoint: options.endpoint } : {}),
    adopt(record, verified) {
      adopted.push({ record, verified });
      return `model-${adopted.length}`;
    },
    onProgress: (event) => events.push(event),
    progressIntervalMs: options.progressIntervalMs ?? 0,
    ...(options.now ? { now: options.now } : {}),
  });
  managers.push(manager);
  return { manager, records, guard, ledger, adopted, events, modelsDir };
}

async function until<T>(
  fn: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 60_000, // a safety net only: every wait is for a state
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Waits until the partial file's progress record marks more than `bytes` complete on disk, and answers how much it
 * marks: what a pause or a restart keeps. The server having sent the bytes is not enough: on a busy machine the
 * downloader may not have written them yet.
 */
function onDiskOver(modelsDir: string, id: string, fileName: string, totalBytes: number, bytes: number) {
  const partial = partialPathOf(join(modelsDir, '.downloads', id, fileName));
  return until(async () => {
    const onDisk = await partialBytesOnDisk(partial, totalBytes);
    return onDisk !== null && onDisk > bytes ? onDisk : undefined;
  }, `more than ${bytes} bytes of ${fileName} written`);
}

async function finished(manager: DownloadManager, id: string): Promise<Download> {
  await manager.idle();
  const download = manager.get(id);
  if (!download) throw new Error('download vanished');
  return download;
}

describe('DownloadManager (real node-llama-cpp downloader against a local server)', () => {
  it('downloads an hf: URI with progress events, verifies size and sha256, then adopts the file', async () => {
    const server = await serve();
    const { manager, adopted, events, ledger, modelsDir } = setup({ endpoint: `${server.origin}/` });
    const started = await manager.start({
      catalogId: 'tiny',
      uri: 'hf:test/tiny-GGUF/tiny.gguf',
      expectedSizeBytes: server.size,
      expectedSha256: modelSha,
    });
    expect(started.state === 'queued' || started.state === 'downloading').toBe(true);
    const done = await finished(manager, started.id);
    expect(done).toMatchObject({ state: 'done', bytes: server.size, totalBytes: server.size, modelId: 'model-1' });
    expect(done.path).toBe(join(modelsDir, 'tiny.gguf'));
    expect(await sha256File(done.path)).toBe(modelSha);
    expect(adopted[0]?.verified).toEqual({ sizeBytes: server.size, sha256: modelSha, integrity: 'sha256-matched' });
    // Progress: states in order, bytes never going back within the run, speed reported while downloading.
    const states = events.map((e) => e.state).filter((s, i, all) => s !== all[i - 1]);
    expect(states).toEqual(['queued', 'downloading', 'verifying', 'done']);
    const running = events.filter((e) => e.state === 'downloading');
    expect(running.length).toBeGreaterThan(2);
    expect(running.some((e) => e.bytesPerSecond > 0 && e.bytes > 0 && e.totalBytes === server.size)).toBe(true);
    expect(server.requests.every((r) => r.path === '/test/tiny-GGUF/resolve/main/tiny.gguf')).toBe(true);
    // The staging folder is gone; the models folder holds the verified file only.
    expect(readdirSync(modelsDir).sort()).toEqual(['.downloads', 'tiny.gguf']);
    expect(readdirSync(join(modelsDir, '.downloads'))).toEqual([]);
    // The egress guard saw the connection, with its host, port and the bytes received.
    expect(ledger.list()).toEqual([
      expect.objectContaining({
        allowed: true,
        feature: 'model-download',
        reason: 'rule model-download: 127.0.0.1',
        host: '127.0.0.1',
        port: Number(new URL(server.origin).port),
        source: 'model download: tiny.gguf',
        bytes: server.size,
      }),
    ]);
  });

  it('survives a connection cut halfway: the downloader reconnects and the file checks out', async () => {
    const server = await serve({ cutFirstRangeAfterBytes: 3 * MiB });
    const { manager } = setup();
    const { id } = await manager.start({
      catalogId: null,
      uri: server.url,
      expectedSizeBytes: null,
      expectedSha256: modelSha,
    });
    const done = await finished(manager, id);
    expect(done.state).toBe('done');
    expect(server.requests.filter((r) => r.cut)).toHaveLength(1);
    expect(await sha256File(done.path)).toBe(modelSha);
  });

  it('pauses keeping the bytes on disk and resumes without fetching them again', async () => {
    const server = await serve();
    const { manager, modelsDir } = setup();
    server.stallAfter(20 * MiB);
    const { id } = await manager.start({
      catalogId: null,
      uri: server.url,
      expectedSizeBytes: null,
      expectedSha256: null,
    });
    await until(() => server.rangedBytes >= 20 * MiB, 'the stall');
    const written = await onDiskOver(modelsDir, id, 'tiny.gguf', server.size, 10 * MiB);
    const paused = await manager.pause(id);
    expect(paused.state).toBe('paused');
    expect(paused.bytes).toBeGreaterThan(10 * MiB);
    expect(paused.bytes).toBeGreaterThanOrEqual(written);
    const staged = readdirSync(join(modelsDir, '.downloads', id));
    expect(staged).toEqual(['tiny.gguf.ipull']);
    const before = server.rangedBytes;
    server.release();
    server.resetCounts();

    await manager.resume(id);
    const done = await finished(manager, id);
    expect(done.state).toBe('done');
    expect(await sha256File(done.path)).toBe(modelSha);
    // Only the chunks not complete at the pause were fetched again (ipull resumes whole 5 MiB chunks).
    expect(server.rangedBytes).toBeLessThan(server.size - 10 * MiB);
    expect(before + server.rangedBytes).toBeLessThan(server.size + 3 * 5 * MiB);
    // With nothing to compare, the server's size was checked and the sha256 recorded.
    expect(done.bytes).toBe(server.size);
  });

  it("shows the bytes of a transfer that stalls within the progress interval, not the first event's", async () => {
    const server = await serve();
    // A clock that stands still: every event after the first falls within the interval and is held back.
    const { manager, events } = setup({ progressIntervalMs: 200, now: () => 1_000_000 });
    server.stallAfter(20 * MiB);
    const { id } = await manager.start({
      catalogId: null,
      uri: server.url,
      expectedSizeBytes: null,
      expectedSha256: null,
    });
    await until(() => server.rangedBytes >= 20 * MiB, 'the stall');
    const shown = await until(() => {
      const last = events.filter((e) => e.id === id).at(-1);
      return last && last.bytes > 10 * MiB ? last : undefined;
    }, 'a progress event with the bytes received before the stall');
    expect(shown.state).toBe('downloading');
    server.release();
    expect((await finished(manager, id)).state).toBe('done');
  });

  it('cancels a running download and deletes its partial file', async () => {
    const server = await serve();
    const { manager, modelsDir } = setup();
    server.stallAfter(20 * MiB);
    const { id } = await manager.start({
      catalogId: null,
      uri: server.url,
      expectedSizeBytes: null,
      expectedSha256: null,
    });
    await until(() => server.rangedBytes >= 20 * MiB, 'the stall');
    await until(() => existsSync(join(modelsDir, '.downloads', id, 'tiny.gguf.ipull')), 'the partial file');
    const cancelled = await manager.cancel(id);
    expect(cancelled).toMatchObject({ state: 'cancelled', bytes: 0 });
    expect(existsSync(join(modelsDir, '.downloads', id))).toBe(false);
    expect(existsSync(join(modelsDir, 'tiny.gguf'))).toBe(false);
    await expect(manager.resume(id)).rejects.toThrow(/cancelled/);
  });

  it('fails a wrong sha256 with both digests named, deletes the file and adopts nothing', async () => {
    const server = await serve();
    const { manager, adopted, modelsDir } = setup();
    const wrong = 'ab'.repeat(32);
    const { id } = await manager.start({
      catalogId: 'x',
      uri: server.url,
      expectedSizeBytes: null,
      expectedSha256: wrong,
    });
    const failed = await finished(manager, id);
    expect(failed.state).toBe('failed');
    expect(failed.error?.code).toBe('CHECKSUM_MISMATCH');
    expect(failed.error?.message).toContain(`its sha256 is ${modelSha}, expected ${wrong}`);
    expect(adopted).toEqual([]);
    expect(existsSync(join(modelsDir, 'tiny.gguf'))).toBe(false);
    expect(existsSync(join(modelsDir, '.downloads', id))).toBe(false);
  });

  it('refuses a server size other than the expected one before fetching the file', async () => {
    const server = await serve();
    const { manager } = setup();
    const { id } = await manager.start({
      catalogId: 'x',
      uri: server.url,
      expectedSizeBytes: 1234,
      expectedSha256: null,
    });
    const failed = await finished(manager, id);
    expect(failed.state).toBe('failed');
    expect(failed.error).toEqual({
      code: 'CHECKSUM_MISMATCH',
      message: `The server offers tiny.gguf with ${server.size.toLocaleString('en-US')} bytes, but 1,234 are expected: it is not the expected file. Nothing was kept.`,
    });
    expect(server.rangedBytes).toBe(0);
  });

  it('names a missing file (HTTP 404) as a failure', async () => {
    const server = await serve({ notFound: true });
    const { manager } = setup();
    const { id } = await manager.start({
      catalogId: null,
      uri: server.url,
      expectedSizeBytes: null,
      expectedSha256: null,
    });
    const failed = await finished(manager, id);
    expect(failed.state).toBe('failed');
    expect(failed.error).toEqual({
      code: 'DOWNLOAD_FAILED',
      message: `The server has no file at ${server.url} (HTTP 404).`,
    });
  });

  it('refuses to connect while offline, before any request', async () => {
    const server = await serve();
    const { manager, ledger, records } = setup({ offline: true });
    await expect(
      manager.start({ catalogId: null, uri: server.url, expectedSizeBytes: null, expectedSha256: null }),
    ).rejects.toMatchObject({ code: 'NETWORK_BLOCKED' });
    expect(records.rows.size).toBe(0);
    expect(server.requests).toEqual([]);
    expect(ledger.list()).toEqual([expect.objectContaining({ allowed: false, host: '127.0.0.1' })]);
  });

  it('after a restart lists an interrupted download as paused and resumes it from its bytes on disk', async () => {
    const server = await serve();
    const first = setup();
    server.stallAfter(20 * MiB);
    const { id } = await first.manager.start({
      catalogId: null,
      uri: server.url,
      expectedSizeBytes: null,
      expectedSha256: modelSha,
    });
    await until(() => server.rangedBytes >= 20 * MiB, 'the stall');
    await onDiskOver(first.modelsDir, id, 'tiny.gguf', server.size, 10 * MiB);
    // The app quits mid-download.
    await first.manager.dispose();
    server.release();
    server.resetCounts();

    const second = setup({ records: first.records, modelsDir: first.modelsDir });
    await second.manager.recover();
    expect(second.manager.get(id)?.state).toBe('paused');
    await second.manager.resume(id);
    const done = await finished(second.manager, id);
    expect(done.state).toBe('done');
    expect(server.rangedBytes).toBeLessThan(server.size - 10 * MiB);
    expect(await sha256File(done.path)).toBe(modelSha);
  });

  it('checks a URI before queueing it', async () => {
    const { manager } = setup();
    await expect(
      manager.start({ catalogId: null, uri: 'ftp://x/a.gguf', expectedSizeBytes: null, expectedSha256: null }),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(
      manager.start({ catalogId: null, uri: 'hf:owner/repo', expectedSizeBytes: null, expectedSha256: null }),
    ).rejects.toThrow(/does not name a file/);
    await expect(
      manager.start({
        catalogId: null,
        uri: 'https://x.test/model.bin',
        expectedSizeBytes: null,
        expectedSha256: null,
      }),
    ).rejects.toThrow(/does not end in a \.gguf file/);
    await expect(manager.pause('nope')).rejects.toMatchObject({ code: 'DOWNLOAD_NOT_FOUND' });
  });

  it('keeps a file name free: a second download of the same file gets its own name', async () => {
    const server = await serve();
    const { manager, modelsDir } = setup();
    const a = await manager.start({ catalogId: null, uri: server.url, expectedSizeBytes: null, expectedSha256: null });
    const b = await manager.start({ catalogId: null, uri: server.url, expectedSizeBytes: null, expectedSha256: null });
    expect(b.state).toBe('queued');
    await manager.idle();
    expect(manager.get(a.id)?.path).toBe(join(modelsDir, 'tiny.gguf'));
    expect(manager.get(b.id)?.path).toBe(join(modelsDir, 'tiny-2.gguf'));
    expect(manager.get(b.id)?.state).toBe('done');
  });
});

describe('a server that refuses a range mid-download (HTTP 403)', () => {
  it('fails the download with the status and leaves the process running', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [compiled('testing/refusedRangeChild'), modelPath], {
      cwd: REPO_ROOT,
    });
    const { download, droppedRejections } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      download: Download;
      droppedRejections: number;
    };
    expect(download.state).toBe('failed');
    expect(download.error).toMatchObject({
      code: 'DOWNLOAD_FAILED',
      message: expect.stringMatching(/refused the download .* \(HTTP 403\)/),
    });
    // ipull did leave rejections unhandled, and the process went on past them to print this and exit 0.
    expect(droppedRejections).toBeGreaterThan(0);
  });

  it('tells ipull errors apart from others', () => {
    const ipull = new Error('Status code: 403');
    ipull.stack = 'StatusCodeError\n    at x (file:///app/node_modules/ipull/dist/download/a.js:1:1)';
    expect(isDownloaderError(ipull)).toBe(true);
    expect(isDownloaderError(new Error('elsewhere'))).toBe(false);
    expect(isDownloaderError('ipull/')).toBe(false);
  });
});

describe('a pause while the downloader counts (wrongly) every byte as received', () => {
  it('keeps the partial file resumable and reports the bytes really on disk', async () => {
    const server = await serve();
    const { manager, modelsDir, events } = setup();
    // One range waits halfway; the others, the last (short) chunk among them, complete: ipull then counts the last
    // chunk as a whole 5 MiB one and reports the file complete, and would rename its partial file when closed.
    server.holdAt(Math.floor(server.size / 2));
    const { id } = await manager.start({
      catalogId: null,
      uri: server.url,
      expectedSizeBytes: null,
      expectedSha256: modelSha,
    });
    await until(() => server.held > 0 && server.requests.filter((r) => r.range !== null).length >= 3, 'the hold');
    // The state this case is about: the downloader counts every byte as received (the manager shows its cap, the
    // total less one byte), while the partial file holds only the chunks really written, some of them already.
    const partial = partialPathOf(join(modelsDir, '.downloads', id, 'tiny.gguf'));
    await until(
      async () =>
        manager.get(id)?.bytes === server.size - 1 && ((await partialBytesOnDisk(partial, server.size)) ?? 0) > 0,
      'the downloader counting the whole file',
    );
    const paused = await manager.pause(id);
    expect(paused.state).toBe('paused');
    expect(paused.bytes).toBeGreaterThan(0);
    expect(paused.bytes).toBeLessThan(server.size);
    expect(events.filter((e) => e.state === 'downloading').every((e) => e.bytes < server.size)).toBe(true);
    expect(readdirSync(join(modelsDir, '.downloads', id))).toEqual(['tiny.gguf.ipull']);
    server.release();
    server.resetCounts();

    await manager.resume(id);
    const done = await finished(manager, id);
    expect(done.state).toBe('done');
    expect(await sha256File(done.path)).toBe(modelSha);
    expect(server.rangedBytes).toBeLessThanOrEqual(server.size - paused.bytes + 5 * MiB);
  });
});
