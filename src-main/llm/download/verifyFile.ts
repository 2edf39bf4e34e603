import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { HomebodyError, type ModelIntegrity } from '../../../src-shared/contract/index.js';

/** The sha256 of a file's bytes, read as a stream (constant memory, any size). */
export async function sha256File(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  const stream = createReadStream(path, { highWaterMark: 1 << 20, ...(signal ? { signal } : {}) });
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export interface Expected {
  /** null when not known. */
  readonly sizeBytes: number | null;
  readonly sha256: string | null;
}

export interface Verified {
  readonly sizeBytes: number;
  readonly sha256: string;
  readonly integrity: ModelIntegrity;
}

function formatBytes(bytes: number): string {
  return `${bytes.toLocaleString('en-US')} bytes`;
}

/**
 * Checks a file against its expected size (first, cheaply) and sha256. Throws CHECKSUM_MISMATCH naming the expected
 * and the actual value; answers the file's size, sha256 and how far it could be checked.
 */
export async function verifyFile(
  path: string,
  expected: Expected,
  wording: { subject: string; consequence: string } = {
    subject: 'The downloaded file',
    consequence: 'It was not kept.',
  },
  signal?: AbortSignal,
): Promise<Verified> {
  const { size } = await stat(path);
  if (expected.sizeBytes !== null && size !== expected.sizeBytes) {
    throw new HomebodyError(
      'CHECKSUM_MISMATCH',
      `${wording.subject} has the wrong size: expected ${formatBytes(expected.sizeBytes)}, got ${formatBytes(size)}. ${wording.consequence}`,
    );
  }
  const sha256 = await sha256File(path, signal);
  if (expected.sha256 !== null && sha256 !== expected.sha256.toLowerCase()) {
    throw new HomebodyError(
      'CHECKSUM_MISMATCH',
      `${wording.subject} is not the expected one: its sha256 is ${sha256}, expected ${expected.sha256}. It may be damaged or changed on the server. ${wording.consequence}`,
    );
  }
  const integrity: ModelIntegrity =
    expected.sha256 !== null ? 'sha256-matched' : expected.sizeBytes !== null ? 'size-matched' : 'unchecked';
  return { sizeBytes: size, sha256, integrity };
}
