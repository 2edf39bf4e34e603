import { describe, expect, it } from 'vitest';
import { checkSender, type SenderSnapshot, type TrustedWindowSnapshot } from './senderCheck.js';

const isAllowedUrl = (url: string) => url.startsWith('homebody://app/');
const trusted: TrustedWindowSnapshot = { webContentsId: 1, mainFrame: { processId: 4, routingId: 1 } };
const fromMainFrame: SenderSnapshot = {
  webContentsId: 1,
  frame: { processId: 4, routingId: 1, url: 'homebody://app/index.html' },
};

describe('checkSender', () => {
  it('accepts the main frame of our window on our page', () => {
    expect(checkSender(fromMainFrame, trusted, isAllowedUrl)).toEqual({ ok: true });
  });

  it('refuses when no window is trusted', () => {
    expect(checkSender(fromMainFrame, null, isAllowedUrl).ok).toBe(false);
  });

  it('refuses another web contents', () => {
    expect(checkSender({ ...fromMainFrame, webContentsId: 2 }, trusted, isAllowedUrl).ok).toBe(false);
  });

  it('refuses a subframe, even one on our own origin', () => {
    const subframe = { webContentsId: 1, frame: { processId: 4, routingId: 7, url: 'homebody://app/index.html' } };
    expect(checkSender(subframe, trusted, isAllowedUrl).ok).toBe(false);
    const otherProcess = { webContentsId: 1, frame: { processId: 9, routingId: 1, url: 'homebody://app/index.html' } };
    expect(checkSender(otherProcess, trusted, isAllowedUrl).ok).toBe(false);
  });

  it('refuses a frame that is gone or shows another page', () => {
    expect(checkSender({ webContentsId: 1, frame: null }, trusted, isAllowedUrl).ok).toBe(false);
    const verdict = checkSender(
      { webContentsId: 1, frame: { processId: 4, routingId: 1, url: 'https://evil.example/' } },
      trusted,
      isAllowedUrl,
    );
    expect(verdict).toEqual({ ok: false, reason: expect.stringContaining('https://evil.example/') });
  });
});
