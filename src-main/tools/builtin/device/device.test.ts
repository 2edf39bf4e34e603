import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makePackContext, type PackTestContext } from '../../../testing/tools/packTestContext.js';
import type { DeviceRequest, JsonValue, ToolServices } from '../../toolTypes.js';
import { clipboardRead, clipboardWrite } from './clipboard.js';
import { deviceNotify } from './deviceNotify.js';
import { deviceOpen } from './deviceOpen.js';
import { deviceStatus, readBatteries, readNetwork } from './deviceStatus.js';
import { DEVICE_TOOLS } from './index.js';
import { ToolRegistry } from '../../registry.js';

/** Services that record every device request and answer like a shell would. */
function recordingServices(clipboard = 'copied text'): { services: ToolServices; requests: DeviceRequest[] } {
  const requests: DeviceRequest[] = [];
  return {
    requests,
    services: {
      egress: () => Promise.reject(new Error('no network in this test')),
      device: (request): Promise<JsonValue> => {
        requests.push(request);
        return Promise.resolve<JsonValue>(request.kind === 'clipboard-read' ? { text: clipboard } : { done: true });
      },
    },
  };
}

let fx: PackTestContext | undefined;
afterEach(() => fx?.cleanup());

describe('device tools', () => {
  it('declare their risks; device_open always asks', () => {
    expect(DEVICE_TOOLS.map((t) => [t.name, t.risk, t.alwaysAsk === true])).toEqual([
      ['clipboard_read', 'read', false],
      ['clipboard_write', 'write', false],
      ['device_open', 'write', true],
      ['device_notify', 'write', false],
      ['device_status', 'read', false],
    ]);
    // The settings learn it from tools.list, to offer ask, queue or off only.
    expect(
      new ToolRegistry()
        .info()
        .filter((t) => t.alwaysAsk)
        .map((t) => t.name),
    ).toEqual(['device_open']);
  });

  it('reads the clipboard as untrusted content and writes it through the shell', async () => {
    const { services, requests } = recordingServices('from a web page');
    fx = makePackContext({ services });
    const read = await clipboardRead.run({}, fx.ctx);
    expect(read).toMatchObject({ result: { text: 'from a web page' }, untrustedSource: 'the clipboard' });
    await clipboardWrite.run({ text: 'hello' }, fx.ctx);
    await deviceNotify.run({ title: 'Tea', body: 'ready' }, fx.ctx);
    expect(requests).toEqual([
      { kind: 'clipboard-read' },
      { kind: 'clipboard-write', text: 'hello' },
      { kind: 'notify', title: 'Tea', body: 'ready' },
    ]);
  });

  it('says clearly when no shell can do it', async () => {
    fx = makePackContext();
    await expect(clipboardRead.run({}, fx.ctx)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('opens http(s) addresses and existing files in granted folders, and shows the target', async () => {
    const { services, requests } = recordingServices();
    fx = makePackContext({ services });
    const granted = path.join(fx.base, 'granted');
    mkdirSync(granted);
    writeFileSync(path.join(granted, 'report.pdf'), '%PDF');
    fx = { ...fx, ctx: { ...fx.ctx, roots: [{ path: granted, untrusted: false }] } };

    expect(deviceOpen.describe({ target: 'https://example.org/a' })).toMatchObject({
      summary: 'Open https://example.org/a',
      details: [{ label: 'Opens', value: 'https://example.org/a' }],
    });
    await deviceOpen.run({ target: 'https://example.org/a' }, fx.ctx);
    await deviceOpen.run({ target: 'http://example.org' }, fx.ctx);
    await deviceOpen.run({ target: path.join(granted, 'report.pdf') }, fx.ctx);
    expect(requests.map((r) => (r.kind === 'open' ? r.target : r.kind))).toEqual([
      'https://example.org/a',
      'http://example.org/',
      path.join(granted, 'report.pdf'),
    ]);
  });

  it('refuses other schemes, files outside the folders, missing files and programs', async () => {
    const { services, requests } = recordingServices();
    fx = makePackContext({ services });
    const granted = path.join(fx.base, 'granted');
    mkdirSync(granted);
    writeFileSync(path.join(granted, 'run.sh'), 'echo hi');
    writeFileSync(path.join(granted, 'tool'), 'binary');
    chmodSync(path.join(granted, 'tool'), 0o755);
    fx = { ...fx, ctx: { ...fx.ctx, roots: [{ path: granted, untrusted: false }] } };
    for (const target of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'mailto:ana@example.org',
      'data:text/html,x',
      'https://user:pw@example.org/',
      `https://example.org/${'a'.repeat(2100)}`,
    ]) {
      await expect(deviceOpen.run({ target }, fx.ctx), target).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
    await expect(deviceOpen.run({ target: '/etc/passwd' }, fx.ctx)).rejects.toMatchObject({
      code: 'OUTSIDE_GRANTED_FOLDERS',
    });
    await expect(deviceOpen.run({ target: path.join(granted, 'nope.txt') }, fx.ctx)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(deviceOpen.run({ target: path.join(granted, 'run.sh') }, fx.ctx)).rejects.toThrow(/program/);
    await expect(deviceOpen.run({ target: path.join(granted, 'tool') }, fx.ctx)).rejects.toThrow(/executable/);
    expect(requests).toEqual([]);
  });

  it('reports battery, disk, memory and network without opening a connection', async () => {
    fx = makePackContext();
    const power = path.join(fx.base, 'power');
    for (const [name, type, capacity, status] of [
      ['BAT0', 'Battery', '57', 'Discharging'],
      ['AC', 'Mains', '', ''],
    ] as const) {
      mkdirSync(path.join(power, name), { recursive: true });
      writeFileSync(path.join(power, name, 'type'), `${type}\n`);
      if (capacity) writeFileSync(path.join(power, name, 'capacity'), `${capacity}\n`);
      if (status) writeFileSync(path.join(power, name, 'status'), `${status}\n`);
    }
    expect(await readBatteries(power)).toEqual([{ name: 'BAT0', percent: 57, status: 'Discharging' }]);
    expect(await readBatteries(path.join(fx.base, 'none'))).toEqual([]);

    const net = path.join(fx.base, 'net');
    mkdirSync(path.join(net, 'wlan9'), { recursive: true });
    writeFileSync(path.join(net, 'wlan9', 'operstate'), 'down\n');
    expect(await readNetwork(net)).toContainEqual({ name: 'wlan9', up: false, addresses: [] });

    const status = (await deviceStatus.run({}, fx.ctx)).result as Record<string, unknown>;
    expect(status).toHaveProperty('battery');
    expect(status.disk).toMatchObject({ freeBytes: expect.any(Number) });
    expect(status.memory).toMatchObject({ total: expect.any(String) });
    expect(Array.isArray(status.network)).toBe(true);
  });
});
