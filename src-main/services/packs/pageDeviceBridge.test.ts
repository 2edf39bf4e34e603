import { describe, expect, it } from 'vitest';
import type { HostEvent } from '../../../src-shared/contract/index.js';
import { PageDeviceBridge } from './pageDeviceBridge.js';

/** Timers the test fires by hand, so a timeout needs no waiting. */
function handTimers() {
  const timers = new Map<number, () => void>();
  let next = 1;
  return {
    setTimer: ((fn: () => void) => {
      const id = next++;
      timers.set(id, fn);
      return id as unknown as ReturnType<typeof setTimeout>;
    }) as (fn: () => void, ms: number) => ReturnType<typeof setTimeout>,
    clearTimer: (id: ReturnType<typeof setTimeout>) => void timers.delete(id as unknown as number),
    fireAll: () => {
      const all = [...timers.values()];
      timers.clear();
      for (const fn of all) fn();
    },
    count: () => timers.size,
  };
}

function setup() {
  const timers = handTimers();
  let n = 0;
  const bridge = new PageDeviceBridge({
    newId: () => `r${++n}`,
    setTimer: timers.setTimer,
    clearTimer: timers.clearTimer,
  });
  const sent: HostEvent[] = [];
  bridge.connect((e) => sent.push(e));
  return { bridge, sent, timers };
}

describe('PageDeviceBridge', () => {
  it('refuses clearly when no page is connected', async () => {
    const { bridge, sent } = setup();
    await expect(bridge.handle({ kind: 'clipboard-read' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/No Homebody page is open to read the clipboard/),
    });
    expect(sent).toEqual([]);
  });

  it("sends each request to the page as an event and resolves with the page's answer", async () => {
    const { bridge, sent, timers } = setup();
    bridge.setConnectedPages(1);
    const read = bridge.handle({ kind: 'clipboard-read' });
    const write = bridge.handle({ kind: 'clipboard-write', text: 'hi' });
    expect(sent).toEqual([
      { type: 'device.request', id: 'r1', request: { kind: 'clipboard-read' } },
      { type: 'device.request', id: 'r2', request: { kind: 'clipboard-write', text: 'hi' } },
    ]);
    expect(bridge.answer({ id: 'r2', ok: true })).toBe(true);
    expect(bridge.answer({ id: 'r1', ok: true, text: 'copied' })).toBe(true);
    await expect(read).resolves.toEqual({ text: 'copied' });
    await expect(write).resolves.toEqual({ done: true });
    // A second tab's late answer finds nothing waiting.
    expect(bridge.answer({ id: 'r1', ok: true, text: 'again' })).toBe(false);
    expect(timers.count()).toBe(0);
  });

  it("passes the page's refusal on, and times out when the page does not answer", async () => {
    const { bridge, timers } = setup();
    bridge.setConnectedPages(2);
    const denied = bridge.handle({ kind: 'clipboard-read' });
    bridge.answer({ id: 'r1', ok: false, message: 'the browser refused clipboard access' });
    await expect(denied).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/browser refused/),
    });
    const open = bridge.handle({ kind: 'open', target: 'https://example.org' });
    timers.fireAll();
    await expect(open).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/nobody clicked Open/),
    });
  });

  it('never asks the page to open a file, and tells when a page connects', async () => {
    const { bridge, sent } = setup();
    const calls: number[] = [];
    bridge.onAvailable(() => calls.push(1));
    bridge.setConnectedPages(1);
    bridge.setConnectedPages(2);
    bridge.setConnectedPages(0);
    bridge.setConnectedPages(1);
    expect(calls).toEqual([1, 1]);
    await expect(bridge.handle({ kind: 'open', target: '/home/u/a.pdf' })).rejects.toThrow(/cannot open files/);
    expect(sent).toEqual([]);
  });

  it('never asks the page to open an address other than http(s), with credentials, or over-long', async () => {
    const { bridge, sent } = setup();
    bridge.setConnectedPages(1);
    for (const target of [
      'mailto:a@example.org',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'https://u:p@example.org/',
      `https://example.org/${'a'.repeat(2100)}`,
    ]) {
      await expect(bridge.handle({ kind: 'open', target }), target).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
    expect(sent).toEqual([]);
  });
});
