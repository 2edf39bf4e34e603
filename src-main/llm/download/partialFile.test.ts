import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { partialBytesOnDisk, partialPathOf, settlePartialFile } from './partialFile.js';

const dir = () => mkdtempSync(join(tmpdir(), 'hb-partial-'));

/** A partial file as ipull writes it: the file's length of bytes, then its progress as JSON. */
function partial(path: string, total: number, chunks: number[], chunkSize: number): void {
  const progress = JSON.stringify({ part: 0, chunks, chunkSize, parallelStreams: 3 });
  writeFileSync(path, Buffer.concat([Buffer.alloc(total), Buffer.from(progress)]));
}

describe('partialBytesOnDisk', () => {
  it('counts complete chunks at their true size (the last one is short)', async () => {
    const path = join(dir(), 'm.gguf.ipull');
    partial(path, 25, [2, 1, 0, 2], 7); // chunks 0..3 of 7, 7, 7, 4 bytes: 0 and 3 complete
    expect(await partialBytesOnDisk(path, 25)).toBe(11);
  });

  it('answers null without a readable progress record', async () => {
    const d = dir();
    expect(await partialBytesOnDisk(join(d, 'none.ipull'), 25)).toBeNull();
    writeFileSync(join(d, 'short.ipull'), Buffer.alloc(10));
    expect(await partialBytesOnDisk(join(d, 'short.ipull'), 25)).toBeNull();
    writeFileSync(join(d, 'junk.ipull'), Buffer.concat([Buffer.alloc(25), Buffer.from('{not json')]));
    expect(await partialBytesOnDisk(join(d, 'junk.ipull'), 25)).toBeNull();
    expect(await partialBytesOnDisk(join(d, 'junk.ipull'), null)).toBeNull();
  });
});

describe('settlePartialFile', () => {
  it('keeps a complete file and drops a stale partial one beside it', async () => {
    const path = join(dir(), 'm.gguf');
    writeFileSync(path, Buffer.alloc(25));
    writeFileSync(partialPathOf(path), 'stale');
    expect(await settlePartialFile(path, 25)).toBe(true);
    expect(existsSync(partialPathOf(path))).toBe(false);
  });

  it('puts a partial file renamed too early back under its partial name', async () => {
    const path = join(dir(), 'm.gguf');
    partial(path, 25, [2, 0, 0, 0], 7);
    const bytes = readFileSync(path);
    expect(await settlePartialFile(path, 25)).toBe(false);
    expect(existsSync(path)).toBe(false);
    expect(readFileSync(partialPathOf(path))).toEqual(bytes);
  });

  it('answers false when there is no file', async () => {
    expect(await settlePartialFile(join(dir(), 'm.gguf'), 25)).toBe(false);
  });
});
