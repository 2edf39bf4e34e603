import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contentTypeFor,
  isInsideRoot,
  lexicalRendererPath,
  readRendererFile,
  resolveRendererFile,
} from './rendererFiles.js';

describe('isInsideRoot', () => {
  const root = path.resolve('/srv/renderer');
  it('accepts paths strictly below the root', () => {
    expect(isInsideRoot(root, path.join(root, 'index.html'))).toBe(true);
    expect(isInsideRoot(root, path.join(root, 'assets', 'a.js'))).toBe(true);
  });
  it('refuses the root itself, siblings sharing a prefix and parents', () => {
    expect(isInsideRoot(root, root)).toBe(false);
    expect(isInsideRoot(root, path.resolve('/srv/renderer-evil/index.html'))).toBe(false);
    expect(isInsideRoot(root, path.resolve('/srv/secret.txt'))).toBe(false);
  });
});

describe('lexicalRendererPath', () => {
  const root = path.resolve('/srv/renderer');
  it('maps / to index.html and keeps nested paths', () => {
    expect(lexicalRendererPath(root, '/')).toBe(path.join(root, 'index.html'));
    expect(lexicalRendererPath(root, '')).toBe(path.join(root, 'index.html'));
    expect(lexicalRendererPath(root, '/assets/index-1a2b.js')).toBe(path.join(root, 'assets', 'index-1a2b.js'));
    expect(lexicalRendererPath(root, '/a%20b.css')).toBe(path.join(root, 'a b.css'));
  });
  it('refuses traversal, encoded traversal, NUL bytes, backslashes and bad escapes', () => {
    for (const pathname of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/..%2f..%2fetc%2fpasswd',
      '/index.html%00.png',
      '/..%5csecret.txt',
      '/assets\\a.js',
      '/%E0%A4%A',
      '/..',
    ]) {
      expect(lexicalRendererPath(root, pathname), pathname).toBeNull();
    }
  });
  it('keeps an absolute-looking path inside the root', () => {
    expect(lexicalRendererPath(root, '//etc/passwd')).toBe(path.join(root, 'etc', 'passwd'));
  });
});

describe('resolveRendererFile', () => {
  let base: string;
  let root: string;

  beforeAll(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'homebody-renderer-')));
    root = path.join(base, 'renderer');
    mkdirSync(path.join(root, 'assets'), { recursive: true });
    writeFileSync(path.join(root, 'index.html'), '<!doctype html>');
    writeFileSync(path.join(root, 'assets', 'app.js'), 'export {};');
    writeFileSync(path.join(base, 'secret.txt'), 'secret');
    symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'leak.txt'));
    symlinkSync(path.join(root, 'assets', 'app.js'), path.join(root, 'alias.js'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('finds regular files inside the root', async () => {
    expect(await resolveRendererFile(root, '/')).toBe(path.join(root, 'index.html'));
    expect(await resolveRendererFile(root, '/assets/app.js')).toBe(path.join(root, 'assets', 'app.js'));
    expect(await readRendererFile(path.join(root, 'index.html'))).toEqual(Buffer.from('<!doctype html>'));
  });
  it('follows a symlink only while it stays inside the root', async () => {
    expect(await resolveRendererFile(root, '/alias.js')).toBe(path.join(root, 'assets', 'app.js'));
    expect(await resolveRendererFile(root, '/leak.txt')).toBeNull();
  });
  it('answers null for traversal, directories and missing files', async () => {
    expect(await resolveRendererFile(root, '/../secret.txt')).toBeNull();
    expect(await resolveRendererFile(root, '/%2e%2e/secret.txt')).toBeNull();
    expect(await resolveRendererFile(root, '/assets')).toBeNull();
    expect(await resolveRendererFile(root, '/assets/')).toBeNull();
    expect(await resolveRendererFile(root, '/missing.js')).toBeNull();
  });
});

describe('contentTypeFor', () => {
  it('serves scripts with a JavaScript MIME type and unknown files as bytes', () => {
    expect(contentTypeFor('/r/assets/index.js')).toMatch(/^text\/javascript/);
    expect(contentTypeFor('/r/index.HTML')).toMatch(/^text\/html/);
    expect(contentTypeFor('/r/font.woff2')).toBe('font/woff2');
    expect(contentTypeFor('/r/blob.bin')).toBe('application/octet-stream');
  });
});
