import { createHost, type HostInternals } from '../host/createHost.js';

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

/**
 * The Host without a model, for commands that act on tools, approvals and the policy. It takes the data folder for
 * as long as the command runs (a second command waits for it), and is refused while the app or `serve` holds it.
 */
export async function withCliHost<T>(dataDir: string, fn: (host: HostInternals) => Promise<T>): Promise<T> {
  const host = await createHost({ dataDir, shell: 'cli', loadModelOnStart: false, command: commandLabel() });
  for (const notice of host.notices) console.error(`homebody: ${notice.message}`);
  try {
    return await fn(host);
  } finally {
    await host.dispose();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
