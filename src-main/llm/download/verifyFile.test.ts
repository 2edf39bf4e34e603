import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256File, verifyFile } from './verifyFile.js';

const file = (content: Buffer) => {
  const path = join(mkdtempSync(join(tmpdir(), 'hb-verify-')), 'm.gguf');
  writeFileSync(path, content);
  return path;
};
const content = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
const digest = createHash('sha256').update(content).digest('hex');

describe('verifyFile', () => {
  it('streams the sha256 of a file', async () => {
    expect(await sha256File(file(content))).toBe(digest);
  });

  it('says how far a file could be checked', async () => {
    const path = file(content);
    expect(await verifyFile(path, { sizeBytes: content.length, sha256: digest.toUpperCase() })).toEqual({
      sizeBytes: content.length,
      sha256: digest,
      integrity: 'sha256-matched',
    });
    expect((await verifyFile(path, { sizeBytes: content.length, sha256: null })).integrity).toBe('size-matched');
    expect((await verifyFile(path, { sizeBytes: null, sha256: null })).integrity).toBe('unchecked');
  });

  it('names the expected and the actual size or digest on a mismatch', async () => {
    const path = file(content);
    await expect(verifyFile(path, { sizeBytes: 10, sha256: digest })).rejects.toMatchObject({
      code: 'CHECKSUM_MISMATCH',
      message: `The downloaded file has the wrong size: expected 10 bytes, got ${content.length.toLocaleString('en-US')} bytes. It was not kept.`,
    });
    const wrong = 'a'.repeat(64);
    await expect(
      verifyFile(path, { sizeBytes: null, sha256: wrong }, { subject: 'm.gguf', consequence: 'Not used.' }),
    ).rejects.toMatchObject({
      code: 'CHECKSUM_MISMATCH',
      message: `m.gguf is not the expected one: its sha256 is ${digest}, expected ${wrong}. It may be damaged or changed on the server. Not used.`,
    });
  });
});
