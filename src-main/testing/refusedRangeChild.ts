/*
 * Tests only (downloadManager.int.test.ts): a download whose server refuses every range with HTTP 403, run in a
 * process of its own, because ipull (under node-llama-cpp's downloader) then also leaves rejections unhandled, which
 * would end a process, and a test runner's own process would report them. Prints the download as it ended, one JSON
 * line, then stays alive a moment to prove the process survived.
 *
 * Usage: node --import tsx src-main/testing/refusedRangeChild.ts MODEL.gguf
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DownloadManager, type DownloadRecord } from '../llm/download/downloadManager.js';
import { EgressGuard } from '../privacy/egressGuard.js';
import { ModelServer } from './modelServer.js';

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
await new Promise((resolve) => setTimeout(resolve, 500));
process.stdout.write(`${JSON.stringify(manager.get(id))}\n`);
await server.close();
