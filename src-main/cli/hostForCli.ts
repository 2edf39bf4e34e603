import { createHost, type HostInternals } from '../host/createHost.js';

/** The Host without a model, for commands that act on tools, approvals and the policy. */
export async function withCliHost<T>(dataDir: string, fn: (host: HostInternals) => Promise<T>): Promise<T> {
  const host = await createHost({ dataDir, shell: 'cli', loadModelOnStart: false });
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
