/** A tool context over fresh temp folders for the packs' unit tests: no granted roots, the packs' own folders. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testPackConfig } from './packFixture.js';
import type { PackConfig, ToolContext, ToolServices } from '../../tools/toolTypes.js';
import { refusingServices } from './packFixture.js';

export interface PackTestContext {
  readonly base: string;
  readonly ctx: ToolContext;
  cleanup(): void;
}

export function makePackContext(
  options: { services?: ToolServices; packs?: Partial<PackConfig>; roots?: ToolContext['roots'] } = {},
): PackTestContext {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hb-pack-')));
  const packs = testPackConfig(path.join(base, 'packs'), options.packs);
  mkdirSync(path.dirname(packs.remindersFile), { recursive: true });
  return {
    base,
    ctx: {
      roots: options.roots ?? [],
      trashDir: path.join(base, 'trash'),
      signal: new AbortController().signal,
      packs,
      services: options.services ?? refusingServices,
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}
