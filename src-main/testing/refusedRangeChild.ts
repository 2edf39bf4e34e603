/*
 * Tests only (downloadManager.int.test.ts): a download whose server refuses every range with HTTP 403, run in a
 * process of its own, because ipull (under node-llama-cpp's downloader) then also leaves rejections unhandled, which
 * would end a process, and a test runner's own process would report them. Once the download has ended and each
 * refused range's rejection has come and been dropped, it prints one JSON line, {"download": Download,
 * "droppedRejections": n}, and exits 0: the process survived them.
 *
 * Usage: node build/tsc/src-main/testing/refusedRangeChild.js MODEL.gguf
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DownloadManager, type DownloadRecord } from '../llm/download/downloadManager.js';
import { isDownloaderError } from '../llm/download/fileDownload.js';
import { EgressGuard } from '../privacy/egressGuard.js';
import { ModelServer } from './modelServer.js';

// The rejections fileDownload's guard drops, counted as they pass through it. A listener of this file's own would
// keep the process alive by itself and prove nothing, so the guard's listener is wrapped as it is added: it still
// decides alone, and a rejection it throws on is not counted (it ends the process).
const dropped: unknown[] = [];
const on = process.on.bind(process);
process.on = ((event: string, listener: (...args: unknown[]) => void) =>
  event === 'unhandledRejection'
    ? on(event, (reason: unknown, promise: Promise<unknown>) => {
        listener(reason, promise);
        dropped.push(reason);
      })
    : on(event, listener)) as typeof process.on;

const server = await ModelServer.start(process.argv[2] ?? '', 'tiny.gguf', { refuseRangesWith: 403 });
const rows = new Map<string, DownloadRecord>();
const manager = new DownloadManager({
  modelsDir: join(mkdtempSync(join(tmpdir(), 'hb-refused-')), 'models'),
  records: {
    insert: (record) => void rows.set(record.id, record),
    update: (id, patch) => void rows.set(id, { ...(rows.get(id) as DownloadRecord), ...patch }),
    get: (id) => rows.get(id),
    list: () => [...rows.values()],
  },
  // Offline, as by default, with the loopback server the one host downloads may reach.
  guard: new EgressGuard({ settings: { offline: true, rules: [{ feature: 'model-download', host: '127.0.0.1' }] } }),
  adopt: () => 'never',
});
const { id } = await manager.start({ catalogId: null, uri: server.url, expectedSizeBytes: null, expectedSha256: null });
await manager.idle();
// Each refused range fails one of ipull's parallel streams, whose bookkeeping promise is then left unhandled: the
// download's own failure can come before them, so the process waits until as many have come as ranges were refused.
const refused = () => server.requests.filter((r) => r.range !== null).length;
while (dropped.filter(isDownloaderError).length < refused()) await sleep(10);
process.stdout.write(`${JSON.stringify({ download: manager.get(id), droppedRejections: dropped.length })}\n`);
await server.close();
