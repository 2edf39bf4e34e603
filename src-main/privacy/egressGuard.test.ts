import { describe, expect, it } from 'vitest';
import { HomebodyError } from '../../src-shared/contract/index.js';
import { EgressGuard } from './egressGuard.js';

function blocked(fn: () => unknown): HomebodyError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HomebodyError) return error;
    throw error;
  }
  throw new Error('expected the guard to refuse');
}

describe('EgressGuard', () => {
  it('allows http and https and records each attempt with host, port and purpose', () => {
    const guard = new EgressGuard({ now: () => 42 });
    const ticket = guard.check('https://huggingface.co/qvac/x/resolve/main/a.gguf?token=secret#frag', 'model download');
    ticket.setBytes(1234);
    guard.check('http://127.0.0.1:8080/a.gguf', 'model download');
    expect(guard.list()).toEqual([
      {
        id: 1,
        at: 42,
        purpose: 'model download',
        url: 'https://huggingface.co/qvac/x/resolve/main/a.gguf',
        host: 'huggingface.co',
        port: 443,
        allowed: true,
        reason: null,
        bytes: 1234,
      },
      expect.objectContaining({ host: '127.0.0.1', port: 8080, allowed: true, bytes: 0 }),
    ]);
  });

  it('refuses other schemes and invalid URLs, and records the refusal', () => {
    const guard = new EgressGuard();
    for (const url of ['file:///etc/passwd', 'ftp://example.com/a.gguf', 'not a url', 'ws://127.0.0.1/']) {
      const error = blocked(() => guard.check(url, 'test'));
      expect(error.code).toBe('NETWORK_BLOCKED');
    }
    expect(blocked(() => guard.check('ftp://example.com/a', 'test')).message).toMatch(
      /only over http\(s\), smtp\(s\) and imap\(s\), not ftp/,
    );
    expect(guard.list().map((a) => a.allowed)).toEqual([false, false, false, false, false]);
    expect(guard.list()[0]?.bytes).toBeNull();
  });

  it('refuses everything while offline, with a clear message, and allows again once online', () => {
    const guard = new EgressGuard({ offline: true });
    const error = blocked(() => guard.check('https://huggingface.co/a.gguf', 'model download: BotPsy'));
    expect(error.code).toBe('NETWORK_BLOCKED');
    expect(error.message).toBe(
      'Homebody is offline: it opens no connections (here to huggingface.co for model download: BotPsy).',
    );
    guard.setOffline(false);
    expect(guard.check('https://huggingface.co/a.gguf', 'model download').attempt.allowed).toBe(true);
    expect(guard.list().map((a) => [a.allowed, a.reason !== null])).toEqual([
      [false, true],
      [true, false],
    ]);
  });

  it('allows the mail schemes (smtp, smtps, imap, imaps) with their default ports, and refuses them offline', () => {
    const guard = new EgressGuard();
    const ports = [
      'smtp://mail.example.org',
      'smtps://mail.example.org',
      'imap://mail.example.org',
      'imaps://mail.example.org',
    ].map((url) => guard.check(url, 'mail').attempt.port);
    expect(ports).toEqual([25, 465, 143, 993]);
    expect(guard.check('smtp://127.0.0.1:2525', 'send mail').attempt).toMatchObject({
      host: '127.0.0.1',
      port: 2525,
      url: 'smtp://127.0.0.1:2525',
      allowed: true,
    });
    guard.setOffline(true);
    for (const url of ['smtp://127.0.0.1:2525', 'imaps://mail.example.org']) {
      const error = blocked(() => guard.check(url, 'send mail'));
      expect(error.code).toBe('NETWORK_BLOCKED');
      expect(error.message).toMatch(/offline/);
    }
  });

  it('is online by default and keeps at most maxRecords attempts', () => {
    const guard = new EgressGuard({ maxRecords: 3 });
    expect(guard.offline).toBe(false);
    for (let i = 0; i < 5; i++) guard.check(`https://example.com/${i}`, 'test');
    expect(guard.list().map((a) => a.url)).toEqual([
      'https://example.com/2',
      'https://example.com/3',
      'https://example.com/4',
    ]);
  });
});
