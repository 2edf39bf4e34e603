/*
 * Tests only (cli/dataFolderOwner.int.test.ts): the Host as `homebody serve` makes it, without a model or the HTTP
 * layer, holding a data folder in a process of its own. With --executing it records a call that is running (approved,
 * then started, as ToolActions moves one), which a crash leaves behind. It prints {"ready": {"pid", "callId"}} once
 * it holds the folder, then on the line "stop" disposes the Host (a clean exit) and exits 0. A SIGKILL from the test
 * stands for a crash.
 *
 * Usage: node build/tsc/src-main/testing/hostOwnerChild.js DIR [--executing]
 */
import { createInterface } from 'node:readline';
import { createHost } from '../host/createHost.js';

const [dir = '', flag] = process.argv.slice(2);
const report = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const host = await createHost({ dataDir: dir, shell: 'browser', command: 'homebody serve', loadModelOnStart: false });
let callId: string | null = null;
if (flag === '--executing') {
  callId = 'running-when-killed';
  host.store.toolCalls.insert({
    id: callId,
    taskId: null,
    tool: 'write_text',
    args: { path: '/tmp/never-written.txt', content: 'x', overwrite: false },
    description: { title: 'Write a file', summary: 'never-written.txt', details: [] },
    risk: 'write',
    gate: 'prompt',
    state: 'approved',
    taint: [],
    now: Date.now(),
  });
  host.store.toolCalls.start(callId, Date.now());
}
report({ ready: { pid: process.pid, callId } });
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line !== 'stop') return;
  void host.dispose().then(() => process.exit(0));
});
