import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { HomebodyError } from '../../../src-shared/contract/index.js';
import {
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  GGUF_VERSION,
  GgufValueType,
  alignUp,
  tensorByteSize,
} from './ggufFormat.js';

export interface GgufSummary {
  readonly path: string;
  readonly fileBytes: number;
  readonly version: number;
  readonly architecture: string;
  readonly name: string | undefined;
  readonly contextLength: number | undefined;
  readonly tensorCount: number;
  /** Bytes the header and tensor data need; undefined when a tensor type is unknown to this table. */
  readonly requiredBytes: number | undefined;
  readonly metadata: ReadonlyMap<string, string | number | boolean | bigint>;
}

class TruncatedError extends Error {}

/** Sequential little-endian reads over a file descriptor through a window buffer. */
class FileReader {
  private buf = Buffer.alloc(1 << 20);
  private bufStart = 0;
  private bufEnd = 0;
  pos = 0;
  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  private ensure(n: number): void {
    if (this.pos + n > this.size) throw new TruncatedError();
    if (this.pos >= this.bufStart && this.pos + n <= this.bufEnd) return;
    if (n > this.buf.length) this.buf = Buffer.alloc(n);
    this.bufStart = this.pos;
    this.bufEnd = this.pos + readSync(this.fd, this.buf, 0, this.buf.length, this.pos);
    if (this.pos + n > this.bufEnd) throw new TruncatedError();
  }
  private at(n: number): number {
    this.ensure(n);
    const offset = this.pos - this.bufStart;
    this.pos += n;
    return offset;
  }
  u8 = () => this.buf.readUInt8(this.at(1));
  i8 = () => this.buf.readInt8(this.at(1));
  u16 = () => this.buf.readUInt16LE(this.at(2));
  i16 = () => this.buf.readInt16LE(this.at(2));
  u32 = () => this.buf.readUInt32LE(this.at(4));
  i32 = () => this.buf.readInt32LE(this.at(4));
  f32 = () => this.buf.readFloatLE(this.at(4));
  f64 = () => this.buf.readDoubleLE(this.at(8));
  u64 = () => this.buf.readBigUInt64LE(this.at(8));
  i64 = () => this.buf.readBigInt64LE(this.at(8));
  string(): string {
    const length = this.u64();
    if (length > BigInt(this.size - this.pos)) throw new TruncatedError();
    const n = Number(length);
    // Long strings (a chat template) may exceed the window; read them whole.
    const offset = this.at(n);
    return this.buf.toString('utf8', offset, offset + n);
  }
  skip(n: bigint): void {
    if (BigInt(this.pos) + n > BigInt(this.size)) throw new TruncatedError();
    this.pos += Number(n);
  }
}

const FIXED_SIZES: Partial<Record<number, number>> = {
  [GgufValueType.UINT8]: 1,
  [GgufValueType.INT8]: 1,
  [GgufValueType.BOOL]: 1,
  [GgufValueType.UINT16]: 2,
  [GgufValueType.INT16]: 2,
  [GgufValueType.UINT32]: 4,
  [GgufValueType.INT32]: 4,
  [GgufValueType.FLOAT32]: 4,
  [GgufValueType.UINT64]: 8,
  [GgufValueType.INT64]: 8,
  [GgufValueType.FLOAT64]: 8,
};

class MalformedError extends Error {}

function readScalar(r: FileReader, type: number): string | number | boolean | bigint {
  switch (type) {
    case GgufValueType.UINT8:
      return r.u8();
    case GgufValueType.INT8:
      return r.i8();
    case GgufValueType.UINT16:
      return r.u16();
    case GgufValueType.INT16:
      return r.i16();
    case GgufValueType.UINT32:
      return r.u32();
    case GgufValueType.INT32:
      return r.i32();
    case GgufValueType.FLOAT32:
      return r.f32();
    case GgufValueType.BOOL:
      return r.u8() !== 0;
    case GgufValueType.STRING:
      return r.string();
    case GgufValueType.UINT64:
      return r.u64();
    case GgufValueType.INT64:
      return r.i64();
    case GgufValueType.FLOAT64:
      return r.f64();
    default:
      throw new MalformedError(`unknown metadata value type ${type}`);
  }
}

/** Reads a value; arrays are skipped (returned as undefined) since validation needs none of them. */
function readValue(r: FileReader, type: number): string | number | boolean | bigint | undefined {
  if (type !== GgufValueType.ARRAY) return readScalar(r, type);
  const elementType = r.u32();
  const count = r.u64();
  const fixed = FIXED_SIZES[elementType];
  if (fixed !== undefined) {
    r.skip(count * BigInt(fixed));
  } else if (elementType === GgufValueType.STRING) {
    for (let i = 0n; i < count; i++) r.skip(r.u64());
  } else if (elementType === GgufValueType.ARRAY) {
    for (let i = 0n; i < count; i++) readValue(r, GgufValueType.ARRAY);
  } else {
    throw new MalformedError(`unknown array element type ${elementType}`);
  }
  return undefined;
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return undefined;
}

export function openError(path: string, error: NodeJS.ErrnoException): HomebodyError {
  switch (error.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new HomebodyError('MODEL_NOT_FOUND', `No model file at ${path}. Check the path and try again.`);
    case 'EACCES':
    case 'EPERM':
      return new HomebodyError('MODEL_UNREADABLE', `Homebody is not allowed to read ${path} (permission denied).`);
    default:
      return new HomebodyError('MODEL_UNREADABLE', `Cannot read ${path}: ${error.message}`);
  }
}

/**
 * Checks that a file is a complete GGUF model before llama.cpp sees it, so a
 * wrong or damaged file gets a specific error instead of a native failure:
 * missing, unreadable, not GGUF, an unsupported GGUF version, or truncated.
 */
export function inspectGguf(path: string): GgufSummary {
  let fd: number;
  let size: number;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw new HomebodyError('MODEL_UNREADABLE', `${path} is a folder, not a GGUF model file.`);
    size = stat.size;
    fd = openSync(path, 'r');
  } catch (error) {
    if (error instanceof HomebodyError) throw error;
    throw openError(path, error as NodeJS.ErrnoException);
  }
  const r = new FileReader(fd, size);
  try {
    if (size < 4 || r.u32() !== GGUF_MAGIC) {
      throw new HomebodyError(
        'MODEL_NOT_GGUF',
        `${path} is not a GGUF model file. Homebody runs llama.cpp models in the GGUF format (files ending in .gguf).`,
      );
    }
    const version = r.u32();
    if (version !== 2 && version !== GGUF_VERSION) {
      throw new HomebodyError(
        'MODEL_UNSUPPORTED',
        `${path} uses GGUF version ${version}; Homebody reads versions 2 and 3.`,
      );
    }
    const tensorCount = r.u64();
    const kvCount = r.u64();
    if (tensorCount > 1_000_000n || kvCount > 1_000_000n) throw new MalformedError('implausible header counts');
    const metadata = new Map<string, string | number | boolean | bigint>();
    for (let i = 0n; i < kvCount; i++) {
      const key = r.string();
      const value = readValue(r, r.u32());
      if (value !== undefined) metadata.set(key, value);
    }
    let required: bigint | undefined = 0n;
    for (let i = 0n; i < tensorCount; i++) {
      r.string();
      const nDims = r.u32();
      if (nDims > 8) throw new MalformedError(`tensor with ${nDims} dimensions`);
      const dims: bigint[] = [];
      for (let d = 0; d < nDims; d++) dims.push(r.u64());
      const type = r.u32();
      const offset = r.u64();
      const bytes = tensorByteSize(type, dims);
      if (bytes === undefined) required = undefined;
      else if (required !== undefined && offset + bytes > required) required = offset + bytes;
    }
    const alignment = BigInt(asNumber(metadata.get('general.alignment')) ?? GGUF_DEFAULT_ALIGNMENT);
    const dataStart = alignUp(BigInt(r.pos), alignment > 0n ? alignment : BigInt(GGUF_DEFAULT_ALIGNMENT));
    const requiredBytes = required === undefined ? undefined : Number(dataStart + required);
    if (requiredBytes !== undefined && size < requiredBytes) {
      throw truncated(path, size, requiredBytes);
    }
    const architecture = metadata.get('general.architecture');
    if (typeof architecture !== 'string') throw new MalformedError('no general.architecture');
    const name = metadata.get('general.name');
    return {
      path,
      fileBytes: size,
      version,
      architecture,
      name: typeof name === 'string' ? name : undefined,
      contextLength: asNumber(metadata.get(`${architecture}.context_length`)),
      tensorCount: Number(tensorCount),
      requiredBytes,
      metadata,
    };
  } catch (error) {
    if (error instanceof HomebodyError) throw error;
    if (error instanceof TruncatedError) throw truncated(path, size, undefined);
    if (error instanceof MalformedError) {
      throw new HomebodyError(
        'MODEL_NOT_GGUF',
        `${path} starts like a GGUF file but its header is malformed (${error.message}).`,
      );
    }
    throw new HomebodyError('MODEL_UNREADABLE', `Cannot read ${path}: ${(error as Error).message}`, { cause: error });
  } finally {
    closeSync(fd);
  }
}

function truncated(path: string, size: number, required: number | undefined): HomebodyError {
  const need = required === undefined ? 'its header is cut short' : `its tensors need ${required} bytes`;
  return new HomebodyError(
    'MODEL_TRUNCATED',
    `${path} is incomplete: it has ${size} bytes but ${need}. Was a download or copy interrupted?`,
  );
}
