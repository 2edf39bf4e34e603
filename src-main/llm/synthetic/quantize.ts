import { GgmlType, type WritableGgmlType } from '../gguf/ggufFormat.js';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE 754 half-precision bits of `value`, rounded to nearest even (as ggml's GGML_FP32_TO_FP16). */
export function toFloat16Bits(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rest > mid || (rest === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && half & 1)) half++;
  return sign | half;
}

export function fromFloat16Bits(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** Bytes `count` values take in `type`. */
export function encodedSize(type: WritableGgmlType, count: number): number {
  switch (type) {
    case GgmlType.F32:
      return count * 4;
    case GgmlType.F16:
      return count * 2;
    case GgmlType.Q8_0:
      return (count / 32) * 34;
    case GgmlType.Q4_0:
      return (count / 32) * 18;
    default:
      void (type satisfies never);
      throw new Error('unreachable');
  }
}

/**
 * Encodes float values as ggml stores them. Q8_0 and Q4_0 follow ggml's
 * reference quantizers (quantize_row_q8_0_ref, quantize_row_q4_0_ref):
 * blocks of 32 values sharing one f16 scale.
 */
export function encodeValues(type: WritableGgmlType, values: Float32Array): Uint8Array {
  const out = new Uint8Array(encodedSize(type, values.length));
  const view = new DataView(out.buffer);
  switch (type) {
    case GgmlType.F32:
      for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i] ?? 0, true);
      return out;
    case GgmlType.F16:
      for (let i = 0; i < values.length; i++) view.setUint16(i * 2, toFloat16Bits(values[i] ?? 0), true);
      return out;
    case GgmlType.Q8_0:
      for (let b = 0, o = 0; b < values.length; b += 32, o += 34) {
        let amax = 0;
        for (let j = 0; j < 32; j++) amax = Math.max(amax, Math.abs(values[b + j] ?? 0));
        const d = amax / 127;
        const id = d ? 1 / d : 0;
        view.setUint16(o, toFloat16Bits(d), true);
        for (let j = 0; j < 32; j++) view.setInt8(o + 2 + j, Math.round((values[b + j] ?? 0) * id));
      }
      return out;
    case GgmlType.Q4_0:
      for (let b = 0, o = 0; b < values.length; b += 32, o += 18) {
        let amax = 0;
        let max = 0;
        for (let j = 0; j < 32; j++) {
          const v = values[b + j] ?? 0;
          if (Math.abs(v) > amax) {
            amax = Math.abs(v);
            max = v;
          }
        }
        const d = max / -8;
        const id = d ? 1 / d : 0;
        view.setUint16(o, toFloat16Bits(d), true);
        for (let j = 0; j < 16; j++) {
          const lo = Math.min(15, Math.trunc((values[b + j] ?? 0) * id + 8.5));
          const hi = Math.min(15, Math.trunc((values[b + 16 + j] ?? 0) * id + 8.5));
          out[o + 2 + j] = lo | (hi << 4);
        }
      }
      return out;
    default:
      void (type satisfies never);
      throw new Error('unreachable');
  }
}
