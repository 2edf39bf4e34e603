import type { Speed } from '../../../src-shared/contract/index.js';

/** Bytes as MB below a gigabyte, else GB with two decimals; '?' when unknown. */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '?';
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${Math.round(bytes / 1e6)} MB`;
}

export function formatRate(rate: number | null): string {
  if (rate === null) return '?';
  return rate < 10 ? rate.toFixed(1) : String(Math.round(rate));
}

export function speedKindLabel(kind: Speed['kind']): string {
  switch (kind) {
    case 'estimate':
      return 'estimate';
    case 'scaled':
      return 'scaled from a measurement here';
    case 'measured':
      return 'measured here';
    default:
      return kind satisfies never;
  }
}
