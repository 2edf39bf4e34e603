import { cruise, type ICruiseOptions, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { ESLint } from 'eslint';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// DESIGN.md's import rules: the package bans live in eslint.config.js, the directions between folders (on resolved
// paths) and the cycle check in .dependency-cruiser.js. These cases prove both fire, on the real configurations.
const repoRoot = resolve(import.meta.dirname, '..', '..');

describe('package bans (eslint)', () => {
  const eslint = new ESLint({ cwd: repoRoot });

  async function restrictedImports(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  }

  it.each([
    ['src-renderer/features/x.ts', "import fs from 'node:fs';"],
    ['src-renderer/features/x.ts', "import { ipcRenderer } from 'electron';"],
    ['src-shared/contract/x.ts', "import { join } from 'node:path';"],
    ['src-shared/contract/x.ts', "import { useStore } from 'zustand';"],
    ['src-main/llm/x.ts', "import Database from 'better-sqlite3';"],
    ['src-main/store/x.ts', "import { getLlama } from 'node-llama-cpp';"],
    ['src-main/host/x.ts', "import { app } from 'electron';"],
    ['src-main/services/chat/x.ts', "import Database from 'better-sqlite3';"],
    ['src-main/agent/x.ts', "import { spawn } from 'node:child_process';"],
  ])('refuses in %s: %s', async (file, code) => {
    expect(await restrictedImports(file, code)).not.toEqual([]);
  });

  it.each([
    ['src-main/store/x.ts', "import Database from 'better-sqlite3';"],
    ['src-main/llm/x.ts', "import { getLlama } from 'node-llama-cpp';"],
    ['src-main/app/x.ts', "import { app } from 'electron';"],
    ['src-main/tools/sandbox/x.ts', "import { fork } from 'node:child_process';"],
    ['src-main/cli/x.test.ts', "import { execFile } from 'node:child_process';"],
    ['src-main/testing/x.ts', "import { execFile } from 'node:child_process';"],
    ['src-main/bench/x.ts', "import { spawn } from 'node:child_process';"],
  ])('allows in %s: %s', async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });
});

/** A file of the fixture tree that imports one module, which the tree also holds (so it resolves). */
interface ImportCase {
  readonly file: string;
  readonly code: string;
  readonly target: string;
}

/** Files that import one module each, laid out like the repository, with the rule each must break. */
const REFUSED: readonly (ImportCase & { readonly rule: string })[] = [
  {
    file: 'src-main/tools/builtin/files/x.ts',
    code: "import { ToolActions } from '../../../agent/toolActions.js';",
    target: 'src-main/agent/toolActions.ts',
    rule: 'layer-tools',
  },
  {
    file: 'src-main/store/repos/x.ts',
    code: "import { createHost } from '../../host/createHost.js';",
    target: 'src-main/host/createHost.ts',
    rule: 'layer-store',
  },
  {
    file: 'src-main/services/chat/x.ts',
    code: "import { createHost } from '../../host/createHost.js';",
    target: 'src-main/host/createHost.ts',
    rule: 'layer-services',
  },
  {
    file: 'src-main/services/models/x.ts',
    code: "import { startBrowserServer } from '../../server/browserServer.js';",
    target: 'src-main/server/browserServer.ts',
    rule: 'layer-services',
  },
  {
    file: 'src-main/agent/x.ts',
    code: "import { chatService } from '../services/chat/chatService.js';",
    target: 'src-main/services/chat/chatService.ts',
    rule: 'layer-agent',
  },
  {
    file: 'src-main/llm/remote/x.ts',
    code: "import { chatService } from '../../services/chat/chatService.js';",
    target: 'src-main/services/chat/chatService.ts',
    rule: 'layer-llm',
  },
  {
    file: 'src-main/agent/x2.ts',
    code: "import { startBrowserServer } from '../server/browserServer.js';",
    target: 'src-main/server/browserServer.ts',
    rule: 'layer-agent',
  },
  {
    file: 'src-main/permissions/x.ts',
    code: "import { openStore } from '../store/store.js';",
    target: 'src-main/store/store.ts',
    rule: 'layer-permissions',
  },
  {
    file: 'src-main/privacy/x.ts',
    code: "import { LlamaEngine } from '../llm/llamaEngine.js';",
    target: 'src-main/llm/llamaEngine.ts',
    rule: 'layer-privacy',
  },
  {
    // A type is as much a dependency as a value.
    file: 'src-main/privacy/deep/x.ts',
    code: "import type { createHost } from '../../host/createHost.js';",
    target: 'src-main/host/createHost.ts',
    rule: 'layer-privacy',
  },
  {
    // Unit tests stay inside their layer like the code they test.
    file: 'src-main/tools/builtin/web/x.test.ts',
    code: "import { createHost } from '../../../host/createHost.js';",
    target: 'src-main/host/createHost.ts',
    rule: 'layer-tools',
  },
  {
    file: 'src-main/tools/x.ts',
    code: "import { anything } from '../testing/anything.js';",
    target: 'src-main/testing/anything.ts',
    rule: 'no-testing-in-production',
  },
  {
    file: 'src-main/bench/x.ts',
    code: "import { anything } from '../testing/anything.js';",
    target: 'src-main/testing/anything.ts',
    rule: 'no-testing-in-production',
  },
  {
    file: 'src-renderer/features/chat/x.tsx',
    code: "import { renderWithStore } from '../../testing/renderWithStore.js';",
    target: 'src-renderer/testing/renderWithStore.tsx',
    rule: 'no-testing-in-production',
  },
  {
    file: 'src-renderer/features/x.ts',
    code: "import { createHost } from '../../src-main/host/createHost.js';",
    target: 'src-main/host/createHost.ts',
    rule: 'renderer-not-to-main',
  },
  {
    file: 'src-shared/contract/x.ts',
    code: "import { createHost } from '../../src-main/host/createHost.js';",
    target: 'src-main/host/createHost.ts',
    rule: 'shared-imports-no-other-root',
  },
  {
    file: 'src-shared/domain/x.ts',
    code: "import { App } from '../../src-renderer/app/App.js';",
    target: 'src-renderer/app/App.tsx',
    rule: 'shared-imports-no-other-root',
  },
  {
    file: 'src-main/server/x.ts',
    code: "import { App } from '../../src-renderer/app/App.js';",
    target: 'src-renderer/app/App.tsx',
    rule: 'main-not-to-renderer',
  },
  {
    // Two files that need each other's types: a cycle, though neither imports a value.
    file: 'src-main/util/cycleA.ts',
    code: "import type { B } from './cycleB.js';\nexport type A = { b?: B };",
    target: 'src-main/util/cycleB.ts',
    rule: 'no-circular',
  },
  {
    file: 'src-renderer/store/cycleA.ts',
    code: "import { b } from './cycleB.js';\nexport const a = () => b;",
    target: 'src-renderer/store/cycleB.ts',
    rule: 'no-circular',
  },
];

/** Imports the rules must let through: downward, deep, from tests and test helpers. */
const ALLOWED: readonly ImportCase[] = [
  {
    file: 'src-main/host/x.ts',
    code: "import { chatService } from '../services/chat/chatService.js';",
    target: 'src-main/services/chat/chatService.ts',
  },
  {
    file: 'src-main/services/chat/y.ts',
    code: "import { ChatRunner } from '../../agent/chatRunner.js';",
    target: 'src-main/agent/chatRunner.ts',
  },
  {
    file: 'src-main/services/history/y.ts',
    code: "import { openStore } from '../../store/store.js';",
    target: 'src-main/store/store.ts',
  },
  {
    file: 'src-main/cli/x.ts',
    code: "import { createHost } from '../host/createHost.js';",
    target: 'src-main/host/createHost.ts',
  },
  {
    file: 'src-main/host/y.ts',
    code: "import { ChatRunner } from '../agent/chatRunner.js';",
    target: 'src-main/agent/chatRunner.ts',
  },
  {
    file: 'src-main/llm/download/x.ts',
    code: "import { EgressGuard } from '../../privacy/egressGuard.js';",
    target: 'src-main/privacy/egressGuard.ts',
  },
  {
    file: 'src-main/tools/builtin/files/y.ts',
    code: "import { EgressGuard } from '../../../privacy/egressGuard.js';",
    target: 'src-main/privacy/egressGuard.ts',
  },
  {
    file: 'src-main/tools/x.test.ts',
    code: "import { anything } from '../testing/anything.js';",
    target: 'src-main/testing/anything.ts',
  },
  {
    file: 'src-main/tools/builtin/files/x.int.test.ts',
    code:
      "import { createHost } from '../../../host/createHost.js';\n" +
      "import { anything } from '../../../testing/anything.js';",
    target: 'src-main/host/createHost.ts',
  },
  {
    file: 'src-main/testing/y.ts',
    code: "import { createHost } from '../host/createHost.js';",
    target: 'src-main/host/createHost.ts',
  },
  {
    file: 'src-renderer/features/chat/x.test.tsx',
    code: "import { renderWithStore } from '../../testing/renderWithStore.js';",
    target: 'src-renderer/testing/renderWithStore.tsx',
  },
  {
    file: 'src-renderer/features/y.ts',
    code: "import { apiSchemas } from '../../src-shared/contract/index.js';",
    target: 'src-shared/contract/index.ts',
  },
  {
    file: 'e2e/x.spec.ts',
    code: "import { anything } from '../src-main/testing/anything.js';",
    target: 'src-main/testing/anything.ts',
  },
];

describe('directions and cycles (dependency-cruiser)', () => {
  let dir: string;
  let result: ICruiseResult;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'homebody-import-rules-'));
    const files = new Map<string, string>();
    for (const { target } of [...REFUSED, ...ALLOWED]) files.set(target, 'export {};\n');
    // The other half of each cycle imports back the file that imports it.
    files.set('src-main/util/cycleB.ts', "import type { A } from './cycleA.js';\nexport type B = { a?: A };\n");
    files.set('src-renderer/store/cycleB.ts', "import { a } from './cycleA.js';\nexport const b = () => a;\n");
    for (const { file, code } of [...REFUSED, ...ALLOWED]) files.set(file, `${code}\nexport {};\n`);
    files.set('src-main/util/resolvable.ts', "import { gone } from './missing.js';\nexport {};\n");
    for (const [file, code] of files) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), code);
    }
    const options: ICruiseOptions = await extractDepcruiseOptions(join(repoRoot, '.dependency-cruiser.js'));
    const { output } = await cruise(['src-main', 'src-shared', 'src-renderer', 'e2e'], { ...options, baseDir: dir });
    if (typeof output === 'string') throw new Error('dependency-cruiser answered text instead of its result.');
    result = output;
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The rules broken by the imports of one file. */
  const brokenBy = (file: string): string[] =>
    result.summary.violations.filter((v) => v.from === file).map((v) => v.rule.name);

  it('resolves each import to the file it names (.js specifiers name .ts and .tsx files)', () => {
    const resolved = result.modules.find((m) => m.source === 'src-main/tools/builtin/files/x.ts')?.dependencies;
    expect(resolved?.map((d) => d.resolved)).toEqual(['src-main/agent/toolActions.ts']);
    const tsx = result.modules.find((m) => m.source === 'src-main/server/x.ts')?.dependencies;
    expect(tsx?.map((d) => d.resolved)).toEqual(['src-renderer/app/App.tsx']);
  });

  it.each(REFUSED.map((c) => [c.file, c.code, c.rule] as const))('refuses in %s: %s (%s)', (file, _code, rule) => {
    expect(brokenBy(file)).toContain(rule);
  });

  it.each(ALLOWED.map((c) => [c.file, c.code] as const))('allows in %s: %s', (file) => {
    expect(brokenBy(file)).toEqual([]);
  });

  it('refuses an import that names no file, which no other rule could place', () => {
    expect(brokenBy('src-main/util/resolvable.ts')).toEqual(['resolvable']);
  });
});
