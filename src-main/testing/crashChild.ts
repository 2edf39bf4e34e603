/*
 * Tests only (crashSafety.int.test.ts): the Host as `homebody serve` makes it, in a process of its own that the
 * test kills with SIGKILL mid-reply. It loads the model once, makes the earlier turns the test asks for (each run to
 * its end) and the contract calls it is given, then sends what the test writes on stdin, one JSON object a line ({"taskId": string | null, "text"}),
 * through host.call, as the browser server drives it (without the HTTP layer, so the test needs no built renderer).
 * It reports on stdout, one JSON object a line:
 *   {"ready": {"earlier": EarlierReply[]}}                   the model is loaded, the earlier turns and calls done
 *   {"sent": {taskId, userMessageId, assistantMessageId}}   a message from stdin was saved and its reply began
 *   {"finished": Message}                                   that reply ended (a crash test kills it before)
 *   {"error": AppError}                                     the model did not load, or a call or send was refused
 *
 * Usage: node build/tsc/src-main/testing/crashChild.js CONFIG.json (see CrashChildConfig).
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Message, ModelState } from '../../src-shared/contract/index.js';
import { DEFAULT_TEMPERATURE } from '../agent/chatRunner.js';
import { createHost } from '../host/createHost.js';
import type { ScriptedCall } from './scriptedCall.js';
import { scriptedEngines } from './scriptedEngine.js';

export interface EarlierTurn {
  /** The index of the earlier turn whose task this one continues; absent, the turn starts a new task. */
  readonly continues?: number;
  readonly text: string;
}

/** An earlier turn as it ended: its task, its two messages, and the reply as saved. */
export interface EarlierReply {
  readonly taskId: string;
  readonly userMessageId: string;
  readonly assistantMessageId: string;
  readonly reply: Message;
}

export interface CrashChildConfig {
  readonly dataDir: string;
  readonly model: string;
  /** The length cap of the replies to what comes on stdin (the replies a test kills). */
  readonly maxTokens: number;
  /** Turns made before anything is read from stdin: what a crash must not lose. */
  readonly earlier?: readonly EarlierTurn[];
  /** Contract calls made after the earlier turns, through host.call as the app makes them (a policy the user sets). */
  readonly calls?: ReadonlyArray<{ readonly method: string; readonly request: unknown }>;
  /** Calls the generated model is pushed to make, by prompt (see scriptedEngine.ts). */
  readonly scripts?: Readonly<Record<string, readonly ScriptedCall[]>>;
  /** Where the evaluated prompt prefix is kept, when not in the data folder: one the test's Hosts share. */
  readonly prefixCacheDir?: string;
}

/** An earlier turn's reply is cut at a few tokens, as `homebody run --max-tokens 8` cuts it (it ends truncated). */
export const EARLIER_MAX_TOKENS = 8;

const config = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as CrashChildConfig;
const report = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const host = await createHost({
  dataDir: config.dataDir,
  shell: 'browser',
  modelPath: config.model,
  reply: { maxTokens: config.maxTokens },
  ...(config.prefixCacheDir ? { engineConfig: { prefixCacheDir: config.prefixCacheDir } } : {}),
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

// The earlier turns, one after the other, in this process and on this model load. They go to the chat runner, which
// takes a length cap per reply (the contract's chat.send takes the Host's); what they leave is the test's setup.
const earlier: EarlierReply[] = [];
for (const turn of config.earlier ?? []) {
  const taskId = turn.continues === undefined ? null : earlier[turn.continues]!.taskId;
  const sent = host.chat.send(taskId, turn.text, { maxTokens: EARLIER_MAX_TOKENS, temperature: DEFAULT_TEMPERATURE });
  const reply = await sent.done;
  const { userMessageId, assistantMessageId } = sent;
  earlier.push({ taskId: sent.taskId, userMessageId, assistantMessageId, reply });
}

for (const { method, request } of config.calls ?? []) {
  const result = await host.call(method, request);
  if (!result.ok) {
    report({ error: result.error });
    process.exit(1);
  }
}

host.subscribe((event) => {
  if (event.type === 'message.finished') report({ finished: event.message });
});
report({ ready: { earlier } });
// Stays up until it is killed: a crash test never lets it end on its own. (Should the test process go first, its
// end of stdin closes, and this one ends with it rather than outlive it.)
createInterface({ input: process.stdin })
  .on('line', (line) => {
    const { taskId, text } = JSON.parse(line) as { taskId: string | null; text: string };
    void host
      .call('chat.send', { taskId, text })
      .then((sent) => report(sent.ok ? { sent: sent.value } : { error: sent.error }));
  })
  .on('close', () => process.exit(0));
