import type { Dirent } from 'node:fs';
import { readdir, readFile, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { JsonValue, BuiltinToolDefinition } from '../../toolTypes.js';
import { objectSchema } from '../files/common.js';
import { formatBytes } from '../files/fsHelpers.js';
import { trashRoot } from '../files/fsHelpers.js';
import type { JsonObject } from '../summaryText.js';
import { asObject, asObjects, asText, plain, series, summarizer } from '../summaryText.js';

/** Where Linux describes batteries and network links; absent elsewhere (then those parts say "unknown"). */
export const SYS_POWER = '/sys/class/power_supply';
export const SYS_NET = '/sys/class/net';

async function readTrim(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    return undefined;
  }
}

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Each battery's charge and state, from sysfs; empty when there is none (or it cannot be read). */
export async function readBatteries(root = SYS_POWER): Promise<JsonValue[]> {
  const found: JsonValue[] = [];
  for (const entry of await entries(root)) {
    const dir = path.join(root, entry.name);
    if ((await readTrim(path.join(dir, 'type'))) !== 'Battery') continue;
    const capacity = Number(await readTrim(path.join(dir, 'capacity')));
    found.push({
      name: entry.name,
      percent: Number.isFinite(capacity) ? capacity : null,
      status: (await readTrim(path.join(dir, 'status'))) ?? 'unknown',
    });
  }
  return found;
}

/**
 * Network interfaces up or down: sysfs's operstate where there is one, else what the OS reports (an interface
 * with an address counts as up). Nothing is sent anywhere.
 */
export async function readNetwork(root = SYS_NET): Promise<JsonValue[]> {
  const withAddresses = os.networkInterfaces();
  const names = new Set([...(await entries(root)).map((e) => e.name), ...Object.keys(withAddresses)]);
  const out: JsonValue[] = [];
  for (const name of [...names].sort()) {
    const addresses = (withAddresses[name] ?? []).filter((a) => !a.internal);
    if (name === 'lo' || (withAddresses[name] ?? []).some((a) => a.internal)) continue;
    const state = await readTrim(path.join(root, name, 'operstate'));
    const up = state === undefined || state === 'unknown' ? addresses.length > 0 : state === 'up';
    out.push({ name, up, addresses: addresses.map((a) => a.address) });
  }
  return out;
}

export const deviceStatus: BuiltinToolDefinition<Record<string, never>> = {
  name: 'device_status',
  description: "This computer's battery level, free disk space, memory and network connections (up or down).",
  parameters: objectSchema({}, []),
  risk: 'read',
  touches: 'device',
  forPeople: {
    title: 'Check this computer',
    text: 'Tells how full the battery and the disk are, how much memory is free, and whether the network is up.',
  },
  describe() {
    return {
      title: 'Check this computer',
      summary: 'Read battery, disk space, memory and network state.',
      details: [],
    };
  },
  summarize: summarizer<Record<string, never>>(summarizeStatus),
  async run(_args, ctx) {
    // The trash lies inside Homebody's data folder, so its file system is the data folder's.
    const disk = await statfs(await trashRoot(ctx));
    const free = disk.bavail * disk.bsize;
    const total = disk.blocks * disk.bsize;
    const batteries = await readBatteries();
    return {
      result: {
        battery: batteries.length > 0 ? batteries : 'no battery found',
        disk: { free: formatBytes(free), total: formatBytes(total), freeBytes: free },
        memory: { free: formatBytes(os.freemem()), total: formatBytes(os.totalmem()) },
        network: await readNetwork(),
      },
    };
  },
};

/** "Battery at 80% (charging); 12.3 GiB of 500.0 GiB free on disk; 7.5 GiB of 16.0 GiB memory free; online (wlan0)." */
function summarizeStatus(r: JsonObject): string | null {
  const parts: string[] = [];
  const batteries = asObjects(r.battery);
  const [battery] = batteries ?? [];
  if (battery !== undefined) {
    const percent = typeof battery.percent === 'number' && Number.isFinite(battery.percent) ? battery.percent : null;
    const status = asText(battery.status);
    const state =
      status !== undefined && status.toLowerCase() !== 'unknown' ? ` (${plain(status, 20).toLowerCase()})` : '';
    parts.push(percent !== null ? `Battery at ${Math.round(percent)}%${state}` : `Battery level unknown${state}`);
  } else if (typeof r.battery === 'string') {
    parts.push('No battery');
  }
  const disk = asObject(r.disk);
  const diskFree = asText(disk?.free);
  if (diskFree !== undefined) {
    const total = asText(disk?.total);
    parts.push(`${plain(diskFree, 20)}${total !== undefined ? ` of ${plain(total, 20)}` : ''} free on disk`);
  }
  const memory = asObject(r.memory);
  const memoryFree = asText(memory?.free);
  if (memoryFree !== undefined) {
    const total = asText(memory?.total);
    parts.push(`${plain(memoryFree, 20)}${total !== undefined ? ` of ${plain(total, 20)}` : ''} memory free`);
  }
  const network = asObjects(r.network);
  if (network !== undefined) {
    const up = network.filter((n) => n.up === true).map((n) => asText(n.name));
    const names = up.filter((n): n is string => n !== undefined).map((n) => plain(n, 20));
    parts.push(
      up.length === 0
        ? 'no network connection'
        : `online${names.length > 0 ? ` (${series(names, up.length, 2)})` : ''}`,
    );
  }
  if (parts.length === 0) return null;
  const line = parts.join('; ');
  return `${line.charAt(0).toUpperCase()}${line.slice(1)}.`;
}
