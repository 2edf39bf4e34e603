import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createHost, type CreateHostOptions } from '../host/createHost.js';
import type { Host } from '../host/hostTypes.js';
import { PageCommandConfirmer } from '../services/mcp/pageCommandConfirmer.js';
import { PageDeviceBridge } from '../services/packs/pageDeviceBridge.js';
import { startBrowserServer } from '../server/browserServer.js';
import { rendererDir } from '../util/appPaths.js';
import { HOST_OPTIONS, UsageError, dataDirFrom, intOption, replyOverrides, usageErrors, pathArgument } from './args.js';
import { printNotices } from './hostForCli.js';

export const SERVE_USAGE = `homebody serve [--model FILE] [--data-dir DIR] [--port N] [--max-tokens N] [--temperature T]
  Browser mode: serves Homebody on 127.0.0.1 only and prints the address to open (it carries a
  per-launch access token). Without --model, the last model opened is loaded again, if any.`;

/** The command the user typed to start browser mode, as npm tells it (`npm start` runs `serve` itself). */
export function startedBy(env: NodeJS.ProcessEnv = process.env): string {
  if (env.npm_lifecycle_event === 'start') return 'npm start';
  if (env.npm_lifecycle_event === 'homebody') return 'npm run homebody -- serve';
  return 'homebody serve';
}

export function serveCommand(args: string[]): Promise<number> {
  return serve(args);
}

/**
 * `homebody serve`, with `extra` Host options for an entry that is not the CLI's (the end-to-end specs' scripted
 * engine, src-main/testing/scriptedServe.ts); they win over what the arguments say.
 */
export async function serve(args: string[], extra: Partial<CreateHostOptions> = {}): Promise<number> {
  const { values, positionals } = usageErrors(() =>
    parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        ...HOST_OPTIONS,
        port: { type: 'string' },
      },
    }),
  );
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const port = intOption(values.port, 'port', 0, 65535) ?? 0;
  const reply = replyOverrides(values);
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
  const host: Host = await createHost({
    dataDir,
    shell: 'browser',
    command: 'homebody serve',
    device,
    confirmMcpCommand: confirmer,
    reply,
    ...(values.model ? { modelPath: pathArgument(values.model, '--model') } : {}),
    ...extra,
  });
  await printNotices(host);
  let server;
  try {
    server = await startBrowserServer({
      host,
      rendererDir: renderer,
      port,
      onPagesChanged: (count) => device.setConnectedPages(count),
      command: startedBy(),
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
