import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ModelsListing } from '../../src-shared/contract/index.js';
import { sha256File } from '../llm/download/verifyFile.js';
import { runCli } from '../testing/cliProcess.js';
import { ModelServer } from '../testing/modelServer.js';

let server: ModelServer;
const savedCatalog = process.env.HOMEBODY_CATALOG;

beforeAll(async () => {
  const model = inject('tinyModelPath');
  server = await ModelServer.start(model, 'tiny.gguf');
  const catalog = join(mkdtempSync(join(tmpdir(), 'hb-cli-cat-')), 'catalog.json');
  const entry = {
    id: 'tiny',
    family: 'Tiny',
    name: 'Tiny test model',
    quantization: 'Q8_0',
    sizeBytes: server.size,
    sha256: await sha256File(model),
    licence: 'Apache-2.0 (test model)',
    suits: 'Tests',
    uri: server.url,
    uriConfirmed: true,
    card: 'https://example.invalid/tiny',
    baseId: null,
  };
  writeFileSync(catalog, JSON.stringify({ version: 1, models: [entry] }));
  // The CLI runs in a child process, which inherits this environment.
  process.env.HOMEBODY_CATALOG = catalog;
});

afterAll(async () => {
  if (savedCatalog === undefined) delete process.env.HOMEBODY_CATALOG;
  else process.env.HOMEBODY_CATALOG = savedCatalog;
  await server.close();
});

describe('homebody models', () => {
  it('lists the catalog, downloads and checks a model, and removes it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hb-cli-models-'));
    // Offline mode is on for a new data folder: model downloads may reach the loopback server, nothing else.
    expect((await runCli(dataDir, 'privacy', 'allow', 'model-download', '127.0.0.1')).code).toBe(0);
    const downloaded = await runCli(dataDir, 'models', 'download', 'tiny');
    expect(downloaded.stderr).toContain('checking size and sha256');
    expect(downloaded.code).toBe(0);
    const path = join(dataDir, 'models', 'tiny.gguf');
    expect(downloaded.stdout.trim()).toBe(`Downloaded and checked: ${path}`);

    const text = await runCli(dataDir, 'models');
    expect(text.stdout).toMatch(/tiny\s+Tiny test model — 26\.9 MB, Apache-2\.0 \(test model\) — on disk/);
    expect(text.stdout).toContain('downloaded, sha256-matched');

    const after = JSON.parse((await runCli(dataDir, 'models', 'list', '--json')).stdout) as ModelsListing;
    expect(after.catalog.map((c) => [c.id, c.modelId !== null])).toEqual([['tiny', true]]);
    const id = after.models[0]?.id ?? '';
    const removed = await runCli(dataDir, 'models', 'remove', id);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`Deleted Tiny test model (${path}).`);
    expect(existsSync(path)).toBe(false);
  });

  it('says what is wrong with a request', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hb-cli-models-'));
    const unknown = await runCli(dataDir, 'models', 'download', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no model "nope" in the catalog.');
    const notGguf = join(dataDir, 'notes.gguf');
    writeFileSync(notGguf, 'not a model');
    const add = await runCli(dataDir, 'models', 'add', notGguf);
    expect(add.code).toBe(1);
    expect(add.stderr).toMatch(/is not a GGUF model file/);
  });
});
