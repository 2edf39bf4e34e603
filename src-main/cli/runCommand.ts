import { parseArgs } from 'node:util';
import { HomebodyError, ThinkingSettingSchema } from '../../src-shared/contract/index.js';
import { DEFAULT_MAX_TOKENS } from '../agent/chatRunner.js';
import { createHost } from '../host/createHost.js';
import type { Host } from '../host/hostTypes.js';
import { HOST_OPTIONS, UsageError, dataDirFrom, replyOverrides, usageErrors, pathArgument } from './args.js';
import { printNotices, replyEnds } from './hostForCli.js';
import { answerNote, runJson, statsLine } from './runOutput.js';

export type { RunJson } from './runOutput.js';

export const RUN_USAGE = `homebody run [--model FILE | --node ID] [--data-dir DIR] [--max-tokens N] [--temperature T] [--thinking auto|on|off] [--task ID] [--allow-remote] [--json] "prompt"
  Loads the model (without --model or --node, the one the data folder used last), answers the prompt (streamed to
  stdout) and saves the task in the data folder.
  --node uses a model on another computer added on the Models page (its id); --allow-remote agrees that this task's
  messages and tool results are sent to it (asked once per task; without it such a run is refused, nothing sent).
  --json prints one object: {"taskId","messages":[{"role","text"}],"stats":{...},"state"}, with "reasoning" (the
  reply's thought) and "reasoningTokens" when the model thought.
  --thinking: for this run, whatever the model's setting: auto follows its chat template. Default: its setting.
  --task continues an earlier task. Default length cap: ${DEFAULT_MAX_TOKENS} tokens.`;

export async function runCommand(args: string[]): Promise<number> {
  const { values, positionals } = usageErrors(() =>
    parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        ...HOST_OPTIONS,
        task: { type: 'string' },
        node: { type: 'string' },
        'allow-remote': { type: 'boolean', default: false },
        thinking: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    }),
  );
  const prompt = positionals.join(' ').trim();
  if (values.model && values.node) throw new UsageError('give --model or --node, not both');
  if (!prompt) throw new UsageError('a prompt is required, e.g. homebody run --model m.gguf "Hello"');
  const json = values.json;
  const thinking = values.thinking === undefined ? undefined : ThinkingSettingSchema.safeParse(values.thinking);
  if (thinking && !thinking.success)
    throw new UsageError(`--thinking must be auto, on or off, not "${values.thinking}"`);

  const host: Host = await createHost({
    dataDir: dataDirFrom(values),
    shell: 'cli',
    loadModelOnStart: false,
    reply: replyOverrides(values),
    // No one can answer a prompt here: a call that needs permission is not run, and the reply goes on without it.
    canAsk: false,
    ...(thinking?.success ? { thinking: thinking.data } : {}),
    command: 'homebody run',
  });
  let reported = -1;
  const offProgress = host.subscribe((event) => {
    if (event.type !== 'model.state' || event.state.status !== 'loading' || !process.stderr.isTTY) return;
    const percent = Math.floor(event.state.progress * 10) * 10;
    if (percent !== reported) process.stderr.write(`\rLoading model… ${(reported = percent)}%`);
  });
  const finished = replyEnds(host);
  try {
    await printNotices(host);
    // Without --model, the model this data folder used last, as the app and `serve` open it at start.
    const state = values.model
      ? await host.invoke('model.open', { path: pathArgument(values.model, '--model') })
      : values.node
        ? await host.invoke('nodes.use', { id: values.node })
        : await host.invoke('model.openLast', {});
    offProgress();
    if (process.stderr.isTTY && reported >= 0) process.stderr.write('\n');
    if (state.status !== 'ready') {
      const message = state.status === 'error' ? state.error.message : `the model is ${state.status}`;
      console.error(`homebody: ${message}`);
      return 1;
    }
    const sent = await host
      .invoke('chat.send', {
        taskId: values.task ?? null,
        text: prompt,
        ...(values['allow-remote'] ? { allowRemote: true } : {}),
      })
      .catch((error: unknown) => {
        if ((error as { code?: unknown }).code !== 'REMOTE_CONSENT_REQUIRED') throw error;
        throw new HomebodyError(
          'REMOTE_CONSENT_REQUIRED',
          `${(error as Error).message} Run again with --allow-remote to agree.`,
        );
      });
    const offText = json
      ? () => undefined
      : host.subscribe((event) => {
          if (event.type === 'message.delta' && event.messageId === sent.assistantMessageId)
            process.stdout.write(event.text);
        });
    const stopOnSignal = () => void host.invoke('chat.stop', { taskId: sent.taskId }).catch(() => undefined);
    process.once('SIGINT', stopOnSignal);
    const final = await finished.of(sent.assistantMessageId);
    process.off('SIGINT', stopOnSignal);
    offText();

    if (json) {
      const { messages } = await host.invoke('tasks.get', { taskId: sent.taskId });
      process.stdout.write(`${JSON.stringify(runJson(sent.taskId, messages, final))}\n`);
    } else {
      const note = answerNote(final);
      process.stdout.write(note === null ? '\n' : `${note}\n`);
      const figures = statsLine(final, sent.taskId);
      if (figures) console.error(figures);
    }
    if (final.state === 'failed') {
      if (!json) console.error(`homebody: ${final.error ?? 'the reply failed'}`);
      return 1;
    }
    return 0;
  } finally {
    finished.stop();
    await host.dispose();
  }
}
