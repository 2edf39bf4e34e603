import type { TestProject } from 'vitest/node';
import { ensureTestModel } from './testModels.js';

declare module 'vitest' {
  export interface ProvidedContext {
    tinyModelPath: string;
  }
}

/** Makes the tiny generated model once for every test file that runs real inference. */
export default function setup(project: TestProject): void {
  project.provide('tinyModelPath', ensureTestModel('tiny', 'q8_0', 1));
}
