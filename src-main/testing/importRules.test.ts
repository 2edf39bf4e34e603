import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layer rules of DESIGN.md live in eslint.config.js; these cases prove they fire.
const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '..', '..') });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import rules', () => {
  it.each([
    ['src-renderer/features/x.ts', "import fs from 'node:fs';"],
    ['src-renderer/features/x.ts', "import { createHost } from '../../src-main/host/createHost.js';"],
    ['src-renderer/features/x.ts', "import { ipcRenderer } from 'electron';"],
    ['src-shared/contract/x.ts', "import { join } from 'node:path';"],
    ['src-shared/contract/x.ts', "import { useStore } from 'zustand';"],
    ['src-main/llm/x.ts', "import Database from 'better-sqlite3';"],
    ['src-main/store/x.ts', "import { getLlama } from 'node-llama-cpp';"],
    ['src-main/host/x.ts', "import { app } from 'electron';"],
    ['src-main/store/x.ts', "import { createHost } from '../host/createHost.js';"],
    ['src-main/agent/x.ts', "import { startBrowserServer } from '../server/browserServer.js';"],
    ['src-main/server/x.ts', "import { App } from '../../src-renderer/app/App.js';"],
    ['src-main/agent/x.ts', "import { spawn } from 'node:child_process';"],
    ['src-main/tools/x.ts', "import { ToolActions } from '../agent/toolActions.js';"],
    ['src-main/permissions/x.ts', "import { openStore } from '../store/store.js';"],
    ['src-main/privacy/x.ts', "import { createHost } from '../host/createHost.js';"],
    ['src-main/privacy/x.ts', "import { LlamaEngine } from '../llm/llamaEngine.js';"],
  ])('refuses in %s: %s', async (file, code) => {
    expect(await restrictedImports(file, `${code}\nexport {};\n`)).not.toEqual([]);
  });

  it.each([
    ['src-main/store/x.ts', "import Database from 'better-sqlite3';"],
    ['src-main/llm/x.ts', "import { getLlama } from 'node-llama-cpp';"],
    ['src-main/app/x.ts', "import { app } from 'electron';"],
    ['src-main/host/x.ts', "import { ChatRunner } from '../agent/chatRunner.js';"],
    ['src-renderer/features/x.ts', "import { apiSchemas } from '../../src-shared/contract/index.js';"],
    ['src-main/tools/sandbox/x.ts', "import { fork } from 'node:child_process';"],
    ['src-main/cli/x.test.ts', "import { execFile } from 'node:child_process';"],
    ['src-main/testing/x.ts', "import { execFile } from 'node:child_process';"],
    ['src-main/llm/download/x.ts', "import { EgressGuard } from '../../privacy/egressGuard.js';"],
  ])('allows in %s: %s', async (file, code) => {
    expect(await restrictedImports(file, `${code}\nexport {};\n`)).toEqual([]);
  });
});
