import { parseArgs } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ScriptedCall } from '../llm/engineTypes.js';
import { join, resolve } from 'node:path';
import { createHost } from '../host/createHost.js';
import { PageCommandConfirmer } from '../host/pageCommandConfirmer.js';
import { PageDeviceBridge } from '../host/pageDeviceBridge.js';
import { startBrowserServer } from '../server/browserServer.js';
import { rendererDir } from '../util/appPaths.js';
import { HOST_OPTIONS, UsageError, dataDirFrom, intOption, replyOverrides, usageErrors } from './args.js';

export const SERVE_USAGE = `homebody serve [--model FILE] [--data-dir DIR] [--port N] [--max-tokens N] [--temperature T]
  Browser mode: serves Homebody on 127.0.0.1 only and prints the address to open (it carries a
  per-launch access token). Without --model, the last model opened is loaded again, if any.`;

/** Tests only: `{"prompt": [{"name", "params"}]}`, calls a generated model is pushed to make (see ChatRunner). */
function readScripts(file: string): Record<string, ScriptedCall[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--script ${file}: ${(error as Error).message}`);
  }
  const parsed = z.record(z.string(), z.array(z.object({ name: z.string(), params: z.string() }))).safeParse(raw);
  if (!parsed.success) throw new UsageError(`--script ${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export async function serveCommand(args: string[]): Promise<number> {
  const { values, positionals } = usageErrors(() =>
    parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        ...HOST_OPTIONS,
        port: { type: 'string' },
        script: { type: 'string' },
      },
    }),
  );
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const port = intOption(values.port, 'port', 0, 65535) ?? 0;
  const reply = replyOverrides(values);
  const scripts = values.script ? readScripts(values.script) : undefined;
  const renderer = rendererDir();
  if (!existsSync(join(renderer, 'index.html'))) {
    console.error(`homebody: the user interface is not built (${renderer} is missing). Run: npm run build:renderer`);
    return 1;
  }
  const dataDir = dataDirFrom(values);
  // The clipboard, opening addresses and notifications are done by the page, asked through Host events.
  const device = new PageDeviceBridge();
  // A stdio MCP server's command runs once the user typed, in the page, the code printed here: proof from outside
  // the API, which anyone holding the page's token could script.
  const confirmer = new PageCommandConfirmer({ tell: (text) => console.log(text) });
  const host = await createHost({
    dataDir,
    shell: 'browser',
    command: 'homebody serve',
    device,
    confirmMcpCommand: confirmer,
    reply,
    ...(scripts ? { scripts } : {}),
    ...(values.model ? { modelPath: resolve(values.model) } : {}),
  });
  for (const notice of host.notices) console.error(`homebody: ${notice.message}`);
  let server;
  try {
    server = await startBrowserServer({
      host,
      rendererDir: renderer,
      port,
      onPagesChanged: (count) => device.setConnectedPages(count),
    });
  } catch (error) {
    await host.dispose();
    const code = (error as NodeJS.ErrnoException).code;
    console.error(
      `homebody: cannot listen on 127.0.0.1:${port}${code === 'EADDRINUSE' ? ' (the port is in use)' : ''}: ${(error as Error).message}`,
    );
    return 1;
  }
  console.log(`Homebody is running in browser mode (data: ${dataDir}).`);
  console.log(`Open ${server.url}`);
  console.log('Press Ctrl+C to stop.');

  await new Promise<void>((done) => {
    const shutdown = () => {
      process.off('SIGINT', shutdown);
      process.off('SIGTERM', shutdown);
      done();
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
  });
  await server.close();
  device.dispose();
  confirmer.dispose();
  await host.dispose();
  return 0;
}
