import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PackConfig, ToolServices } from '../../tools/toolTypes.js';
import { ToolError } from '../../tools/toolTypes.js';

/** Pack folders under `base` (created), for tests and benchmarks: no mail source, no servers, offline off. */
export function testPackConfig(base: string, overrides: Partial<PackConfig> = {}): PackConfig {
  const dirs = {
    calendarDir: join(base, 'calendar'),
    contactsDir: join(base, 'contacts'),
    notesDir: join(base, 'notes'),
    mailDir: join(base, 'mail'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  return {
    ...dirs,
    remindersFile: join(base, 'reminders', 'reminders.json'),
    mailSource: { kind: 'none' },
    smtp: null,
    imap: null,
    searchEndpoint: null,
    timeZone: 'UTC',
    offline: false,
    ...overrides,
  };
}

/** Services that refuse everything: a tool that needs the network or the shell fails clearly in such a test. */
export const refusingServices: ToolServices = {
  egress: () => Promise.reject(new ToolError('NETWORK_BLOCKED', 'No network in this test.')),
  device: () => Promise.reject(new ToolError('UNAVAILABLE', 'No device in this test.')),
};
