import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_METHODS, type ApiResult } from '../../src-shared/contract/index.js';
import { APP_ENTRY_URL, isAppUrl } from '../app/appOrigin.js';
import type { HostTransport } from '../host/hostTypes.js';
import { FUZZ_SEED, VALID_REQUESTS, describeContractFuzz, seededHost } from '../testing/contractFuzz.js';
import { invokeHandler, type FrameLike, type InvokeEventLike, type WindowLike } from './invokeHandler.js';

/** The Electron IPC path, without Electron: the invoke channel's handler, called with events shaped like Electron's. */

function frame(url: string, ids: { processId?: number; routingId?: number; destroyed?: boolean } = {}): FrameLike {
  return {
    isDestroyed: () => ids.destroyed ?? false,
    processId: ids.processId ?? 4,
    routingId: ids.routingId ?? 1,
    url,
  };
}

const mainFrame = frame(APP_ENTRY_URL);
const appWindow: WindowLike = { isDestroyed: () => false, webContents: { id: 1, mainFrame } };
const fromApp: InvokeEventLike = { sender: { id: 1 }, senderFrame: mainFrame };

let fixture: Awaited<ReturnType<typeof seededHost>>;
beforeAll(async () => {
  fixture = await seededHost();
});
afterAll(() => fixture.dispose());

describeContractFuzz('the IPC invoke handler', {
  transport: () => {
    const handle = invokeHandler({ host: fixture.host, getWindow: () => appWindow, isAllowedUrl: isAppUrl });
    return async (method, request) => {
      // IPC carries a structured clone of what the page sent, never the page's own objects.
      const received = structuredClone(request);
      return { received, result: await handle(fromApp, method, received) };
    };
  },
  wire: (request) => structuredClone(request),
  dataDir: () => fixture.dataDir,
  numRuns: 25,
});

/** A Host that only records: a refused sender must not reach it at all, so valid (even destructive) requests are sent. */
function recordingHost() {
  const calls: string[] = [];
  const host: HostTransport = {
    async call(method): Promise<ApiResult<unknown>> {
      calls.push(method);
      return { ok: true, value: null };
    },
    subscribe: () => () => undefined,
    async dispose() {},
  };
  return { host, calls };
}

describe('the IPC invoke handler refuses other senders', () => {
  const foreignUrl = fc.oneof(
    fc.constantFrom(
      'https://evil.example/',
      'http://127.0.0.1:5173/index.html',
      'homebody://app.evil.example/index.html',
      'homebody://appx/index.html',
      'homebody://user:pass@app/index.html',
      'homebody://app:8080/index.html',
      'HOMEBODY://evil/index.html',
      'file:///etc/passwd',
      'about:blank',
      'data:text/html,<script>1</script>',
      'devtools://devtools/bundled/inspector.html',
      'javascript:alert(1)',
      '',
      'not a url',
    ),
    fc.webUrl(),
  );

  const refusedSender: fc.Arbitrary<{ what: string; event: InvokeEventLike; window: WindowLike | null }> = fc.oneof(
    foreignUrl.map((url) => ({
      what: `main frame showing ${url}`,
      event: { sender: { id: 1 }, senderFrame: frame(url) },
      window: appWindow,
    })),
    fc.integer({ min: 2, max: 1000 }).map((id) => ({
      what: `web contents ${id}`,
      event: { sender: { id }, senderFrame: mainFrame },
      window: appWindow,
    })),
    fc.integer({ min: 2, max: 1000 }).map((routingId) => ({
      what: `subframe ${routingId} on our own page`,
      event: { sender: { id: 1 }, senderFrame: frame(APP_ENTRY_URL, { routingId }) },
      window: appWindow,
    })),
    fc.constantFrom(
      { what: 'a frame that is gone', event: { sender: { id: 1 }, senderFrame: null }, window: appWindow },
      {
        what: 'a destroyed frame',
        event: { sender: { id: 1 }, senderFrame: frame(APP_ENTRY_URL, { destroyed: true }) },
        window: appWindow,
      },
      {
        what: 'a frame whose getter throws',
        event: {
          sender: { id: 1 },
          get senderFrame(): FrameLike {
            throw new Error('Render frame was disposed before WebFrameMain could be accessed');
          },
        },
        window: appWindow,
      },
      { what: 'no window open', event: fromApp, window: null },
      {
        what: 'a closed window',
        event: fromApp,
        window: { isDestroyed: () => true, webContents: appWindow.webContents },
      },
    ),
  );

  it('answers INVALID_REQUEST and never calls the Host, whatever the method', async () => {
    const { host, calls } = recordingHost();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await fc.assert(
        fc.asyncProperty(refusedSender, fc.constantFrom(...API_METHODS), async ({ event, window }, method) => {
          const handle = invokeHandler({ host, getWindow: () => window, isAllowedUrl: isAppUrl });
          const result = await handle(event, method, structuredClone(VALID_REQUESTS[method]));
          expect(result).toEqual({
            ok: false,
            error: { code: 'INVALID_REQUEST', message: 'This page may not call Homebody.' },
          });
        }),
        { seed: FUZZ_SEED, numRuns: 300 },
      );
    } finally {
      warn.mockRestore();
    }
    expect(calls).toEqual([]);
  });

  it('says in the log which sender it refused, without the request', async () => {
    const { host } = recordingHost();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const handle = invokeHandler({ host, getWindow: () => appWindow, isAllowedUrl: isAppUrl });
      await handle({ sender: { id: 1 }, senderFrame: frame('https://evil.example/') }, 'history.import', {
        content: 'secret backup',
      });
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('https://evil.example/'));
      expect(String(warn.mock.calls[0])).not.toContain('secret backup');
    } finally {
      warn.mockRestore();
    }
  });

  it('answers UNKNOWN_METHOD to a method name that is not a string, from our own page', async () => {
    const { host, calls } = recordingHost();
    const handle = invokeHandler({ host, getWindow: () => appWindow, isAllowedUrl: isAppUrl });
    await fc.assert(
      fc.asyncProperty(
        fc.anything().filter((m) => typeof m !== 'string'),
        async (method) => {
          const result = await handle(fromApp, structuredClone(method), {});
          expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
        },
      ),
      { seed: FUZZ_SEED, numRuns: 100 },
    );
    expect(calls).toEqual([]);
  });

  it('turns a Host that throws into an INTERNAL result instead of a rejected IPC call', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const host: HostTransport = {
      call: () => Promise.reject(new Error('boom')),
      subscribe: () => () => undefined,
      async dispose() {},
    };
    try {
      const handle = invokeHandler({ host, getWindow: () => appWindow, isAllowedUrl: isAppUrl });
      await expect(handle(fromApp, 'app.info', {})).resolves.toEqual({
        ok: false,
        error: { code: 'INTERNAL', message: 'Homebody failed to answer this request.' },
      });
    } finally {
      error.mockRestore();
    }
  });
});
