import { describe, expect, it, vi } from 'vitest';

// Each heavy library a pack uses, replaced by one that records its loading: the tool list must not load any of them.
const loaded: string[] = [];
vi.mock('mathjs', () => {
  loaded.push('mathjs');
  return {};
});
vi.mock('linkedom', () => {
  loaded.push('linkedom');
  return {};
});
vi.mock('mailparser', () => {
  loaded.push('mailparser');
  return {};
});
vi.mock('imapflow', () => {
  loaded.push('imapflow');
  return {};
});
vi.mock('nodemailer', () => {
  loaded.push('nodemailer');
  return {};
});

describe('the built-in tool list', () => {
  it('loads no heavy library: the app and every tool worker read it at start, calls load what they need', async () => {
    const { BUILTIN_TOOLS } = await import('./index.js');
    expect(BUILTIN_TOOLS.length).toBeGreaterThan(20);
    expect(loaded).toEqual([]);
  });
});
