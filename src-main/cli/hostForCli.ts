import type { Message } from '../../src-shared/contract/index.js';
import { createHost } from '../host/createHost.js';
import type { Host } from '../host/hostTypes.js';

/**
 * The command as the data folder's owner record names it: "homebody approvals list", "homebody tools call", so a
 * second process that finds the folder taken can say which command holds it. Arguments beyond the subcommand
 * (paths, IDs, prompts) are left out: another process may read the record.
 */
export function commandLabel(argv: readonly string[] = process.argv.slice(2)): string {
  const [command, sub] = argv;
  const words = ['homebody', command, sub && !sub.startsWith('-') ? sub : undefined].filter(Boolean);
  return words.join(' ');
}

/** What the user must be told of this start (a damaged database moved aside, a secret store problem), on stderr. */
export async function printNotices(host: Host): Promise<void> {
  const { notices } = await host.invoke('app.info', {});
  for (const notice of notices) console.error(`homebody: ${notice.message}`);
}

/**
 * The Host without a model, for commands that act on tools, approvals and the policy. It takes the data folder for
 * as long as the command runs (a second command waits for it), and is refused while the app or `serve` holds it.
 * Commands reach it only through the contract (Host.invoke), as the app does.
 */
export async function withCliHost<T>(dataDir: string, fn: (host: Host) => Promise<T>): Promise<T> {
  const host: Host = await createHost({ dataDir, shell: 'cli', loadModelOnStart: false, command: commandLabel() });
  try {
    await printNotices(host);
    return await fn(host);
  } finally {
    await host.dispose();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/**
 * The replies that end while a command runs, by message id, from the moment it is called: a reply may end before
 * the request that started it has answered, so a command subscribes first and asks for the reply's end after.
 */
export function replyEnds(host: Host) {
  const ended = new Map<string, Message>();
  const waiting = new Map<string, (message: Message) => void>();
  const stop = host.subscribe((event) => {
    if (event.type !== 'message.finished') return;
    ended.set(event.message.id, event.message);
    waiting.get(event.message.id)?.(event.message);
  });
  return {
    of: (id: string): Promise<Message> =>
      new Promise((resolve) => {
        const done = ended.get(id);
        if (done) resolve(done);
        else waiting.set(id, resolve);
      }),
    stop,
  };
}
