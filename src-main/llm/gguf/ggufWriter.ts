import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import {
  GGML_TYPES,
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  GGUF_VERSION,
  GgufValueType,
  alignUp,
  tensorByteSize,
} from './ggufFormat.js';

export type GgufMetaValue =
  | { readonly type: 'u32'; readonly value: number }
  | { readonly type: 'i32'; readonly value: number }
  | { readonly type: 'f32'; readonly value: number }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'strings'; readonly value: readonly string[] }
  | { readonly type: 'i32s'; readonly value: ArrayLike<number> };

export interface GgufTensorSource {
  readonly name: string;
  /** ggml order: dims[0] is the contiguous (row) dimension. */
  readonly dims: readonly number[];
  readonly type: number;
  /** Emits exactly the tensor's byte size, in as many chunks as it likes. */
  write(emit: (chunk: Uint8Array) => void): void;
}

/** Little-endian byte builder for the header, which is small enough to keep in memory. */
class ByteBuilder {
  private chunks: Buffer[] = [];
  length = 0;
  private push(buf: Buffer): void {
    this.chunks.push(buf);
    this.length += buf.length;
  }
  u32(v: number): void {
    const b = Buffer.allocUnsafe(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v: number): void {
    const b = Buffer.allocUnsafe(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v: bigint | number): void {
    const b = Buffer.allocUnsafe(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v: number): void {
    const b = Buffer.allocUnsafe(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  u8(v: number): void {
    this.push(Buffer.from([v]));
  }
  str(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  zeros(n: number): void {
    if (n > 0) this.push(Buffer.alloc(n));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}

function writeMetaValue(out: ByteBuilder, value: GgufMetaValue): void {
  switch (value.type) {
    case 'u32':
      out.u32(GgufValueType.UINT32);
      out.u32(value.value);
      return;
    case 'i32':
      out.u32(GgufValueType.INT32);
      out.i32(value.value);
      return;
    case 'f32':
      out.u32(GgufValueType.FLOAT32);
      out.f32(value.value);
      return;
    case 'bool':
      out.u32(GgufValueType.BOOL);
      out.u8(value.value ? 1 : 0);
      return;
    case 'string':
      out.u32(GgufValueType.STRING);
      out.str(value.value);
      return;
    case 'strings':
      out.u32(GgufValueType.ARRAY);
      out.u32(GgufValueType.STRING);
      out.u64(value.value.length);
      for (const s of value.value) out.str(s);
      return;
    case 'i32s':
      out.u32(GgufValueType.ARRAY);
      out.u32(GgufValueType.INT32);
      out.u64(value.value.length);
      for (let i = 0; i < value.value.length; i++) out.i32(value.value[i] ?? 0);
      return;
    default:
      void (value satisfies never);
  }
}

/**
 * Writes a GGUF v3 file. Tensor data is streamed, so a model of several
 * gigabytes never sits in memory; the file appears under its final name only
 * when complete (written to a temporary name, then renamed).
 */
export function writeGguf(
  path: string,
  metadata: ReadonlyArray<readonly [string, GgufMetaValue]>,
  tensors: readonly GgufTensorSource[],
  alignment = GGUF_DEFAULT_ALIGNMENT,
): { bytes: number } {
  const align = BigInt(alignment);
  const header = new ByteBuilder();
  header.u32(GGUF_MAGIC);
  header.u32(GGUF_VERSION);
  header.u64(tensors.length);
  const meta: Array<readonly [string, GgufMetaValue]> = [...metadata];
  if (alignment !== GGUF_DEFAULT_ALIGNMENT) meta.push(['general.alignment', { type: 'u32', value: alignment }]);
  header.u64(meta.length);
  for (const [key, value] of meta) {
    header.str(key);
    writeMetaValue(header, value);
  }

  const sizes: bigint[] = [];
  let offset = 0n;
  for (const t of tensors) {
    const traits = GGML_TYPES.get(t.type);
    const size = tensorByteSize(t.type, t.dims.map(BigInt));
    if (!traits || size === undefined) throw new Error(`cannot write tensor ${t.name}: unknown ggml type ${t.type}`);
    if ((t.dims[0] ?? 0) % traits.blockSize !== 0) {
      throw new Error(`tensor ${t.name}: dimension 0 (${t.dims[0]}) is not a multiple of ${traits.blockSize}`);
    }
    header.str(t.name);
    header.u32(t.dims.length);
    for (const d of t.dims) header.u64(d);
    header.u32(t.type);
    header.u64(offset);
    sizes.push(size);
    offset = alignUp(offset + size, align);
  }
  header.zeros(Number(alignUp(BigInt(header.length), align)) - header.length);

  const tmpPath = `${path}.partial`;
  const fd = openSync(tmpPath, 'w');
  let written = 0;
  const emit = (chunk: Uint8Array): void => {
    let done = 0;
    while (done < chunk.length) done += writeSync(fd, chunk, done, chunk.length - done);
    written += chunk.length;
  };
  try {
    emit(header.toBuffer());
    tensors.forEach((t, i) => {
      const start = written;
      t.write(emit);
      const expected = Number(sizes[i]);
      if (written - start !== expected) {
        throw new Error(`tensor ${t.name} wrote ${written - start} bytes, expected ${expected}`);
      }
      const padded = Number(alignUp(BigInt(written), align));
      if (padded > written) emit(new Uint8Array(padded - written));
    });
    closeSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmpPath, { force: true });
    throw error;
  }
  renameSync(tmpPath, path);
  return { bytes: written };
}
