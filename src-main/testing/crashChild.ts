/*
 * Tests only (crashSafety.int.test.ts): the Host as `homebody serve` makes it, in a process of its own that the
 * test kills with SIGKILL mid-reply. It is driven through host.call, as the browser server drives it (without
 * the HTTP layer, so the test needs no built renderer), and reports on stdout, one JSON object a line:
 *   {"sent": {taskId, userMessageId, assistantMessageId}}   the message was saved and its reply began
 *   {"finished": Message}                                   the reply ended (a crash test kills it before)
 *   {"error": AppError}                                     the model did not load, or the send was refused
 *
 * Usage: node --import tsx src-main/testing/crashChild.ts CONFIG.json (see CrashChildConfig).
 */
import { readFileSync } from 'node:fs';
import type { ModelState } from '../../src-shared/contract/index.js';
import type { ScriptedCall } from './scriptedCall.js';
import { scriptedEngines } from './scriptedEngine.js';
import { createHost } from '../host/createHost.js';

export interface CrashChildConfig {
  readonly dataDir: string;
  readonly model: string;
  readonly maxTokens: number;
  /** The task to continue; null starts a new one. */
  readonly taskId: string | null;
  readonly text: string;
  /** Calls the generated model is pushed to make, by prompt (see scriptedEngine.ts). */
  readonly scripts?: Readonly<Record<string, readonly ScriptedCall[]>>;
}

const config = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as CrashChildConfig;
const report = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const host = await createHost({
  dataDir: config.dataDir,
  shell: 'browser',
  modelPath: config.model,
  reply: { maxTokens: config.maxTokens },
  // Unscripted replies run to their cap: the test kills the process in the middle of one.
  createEngine: scriptedEngines(config.scripts ?? {}, { unscriptedTokens: Infinity }),
});
const state = await new Promise<ModelState>((resolve) => {
  const settled = (s: ModelState) => s.status === 'ready' || s.status === 'error';
  const off = host.subscribe((event) => {
    if (event.type === 'model.state' && settled(event.state)) {
      off();
      resolve(event.state);
    }
  });
  if (settled(host.engine.state)) resolve(host.engine.state);
});
if (state.status !== 'ready') {
  report({ error: state.status === 'error' ? state.error : { code: 'NO_MODEL', message: state.status } });
  process.exit(1);
}
host.subscribe((event) => {
  if (event.type === 'message.finished') report({ finished: event.message });
});
const sent = await host.call('chat.send', { taskId: config.taskId, text: config.text });
report(sent.ok ? { sent: sent.value } : { error: sent.error });
// Stays up until it is killed: a crash test never lets it end on its own.
setInterval(() => undefined, 60_000);
