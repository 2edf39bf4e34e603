import type { TestProject } from 'vitest/node';
import { buildCompiledApp } from './compiledApp.js';
import { ensureTestModel } from './testModels.js';

declare module 'vitest' {
  export interface ProvidedContext {
    tinyModelPath: string;
    /** The tiny qwen35 (Qwen3.5 hybrid: linear and full attention) model. */
    tinyQwen35ModelPath: string;
  }
}

/**
 * Makes the tiny generated models once for every test file that runs real inference, and brings the compiled app
 * up to date for the tests that run the CLI as users do.
 */
export default function setup(project: TestProject): void {
  buildCompiledApp();
  project.provide('tinyModelPath', ensureTestModel('tiny', 'q8_0', 1));
  project.provide('tinyQwen35ModelPath', ensureTestModel('tiny-qwen35', 'q8_0', 1));
}
