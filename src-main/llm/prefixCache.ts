import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type {
  ChatHistoryItem,
  ChatModelFunctions,
  ChatWrapper,
  LlamaContextSequence,
  Token,
  Tokenizer,
} from 'node-llama-cpp';

/**
 * The evaluated system prompt + tool definitions, kept so a new task does not pay for them again.
 *
 * In memory, the context sequence keeps them between tasks: node-llama-cpp keeps the part of a sequence that
 * matches the start of a new prompt and evaluates only the rest. On disk, the sequence's state is saved right
 * after the shared prefix is evaluated (before any user text, so no conversation is ever written here) and
 * loaded on the next start. A file's name is a hash of everything its state depends on: the model file, the
 * context size, node-llama-cpp's version and the prefix's tokens themselves (the system prompt, the tool
 * definitions and the chat wrapper's rendering of them), so a change to any of them simply misses.
 */

/** A prefix shorter than this costs less to evaluate than a file costs to keep. */
export const MIN_CACHED_PREFIX_TOKENS = 128;
/** Files kept; the least recently used go first. */
const MAX_FILES = 6;
/** A 40-tool prefix of a 0.6B model is about 500 MB with an f16 KV cache. */
const MAX_BYTES = 2 * 1024 ** 3;
/** Tokens evaluated between checks of the abort signal (node-llama-cpp's evaluation cannot be aborted). */
const EVALUATION_CHUNK = 512;
const FORMAT = 1;

interface Manifest {
  readonly format: number;
  readonly key: string;
  readonly tokens: number;
  readonly bytes: number;
  readonly model: string;
  /** What else the key hashed, so the latest state of a model can be found without its tokens. */
  readonly contextSize?: number;
  readonly binding?: string;
}

let bindingVersion: string | undefined;
/** node-llama-cpp's version: its state files are llama.cpp's, whose layout may change with any release. */
export function nodeLlamaCppVersion(): string {
  if (bindingVersion === undefined) {
    try {
      const entry = createRequire(import.meta.url).resolve('node-llama-cpp');
      const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version?: string };
      bindingVersion = pkg.version ?? 'unknown';
    } catch {
      bindingVersion = 'unknown';
    }
  }
  return bindingVersion;
}

/** What identifies a model file without reading it: its path, size and modification time. */
export function modelFileIdentity(path: string): string {
  const stat = statSync(path);
  return `${path}|${stat.size}|${stat.mtimeMs}`;
}

/**
 * The tokens every prompt with this system message and these tools starts with: the rendering of two requests
 * that differ only in the user's text, up to where they part.
 */
export function sharedPrefixTokens(
  chatWrapper: ChatWrapper,
  tokenizer: Tokenizer,
  system: ChatHistoryItem,
  functions: ChatModelFunctions | undefined,
): Token[] {
  const render = (text: string) =>
    chatWrapper
      .generateContextState({
        chatHistory: [system, { type: 'user', text }, { type: 'model', response: [] }],
        ...(functions ? { availableFunctions: functions } : {}),
      })
      .contextText.tokenize(tokenizer);
  const a = render('a');
  const b = render('b');
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared++;
  return a.slice(0, shared);
}

export interface PrefixCacheOptions {
  /** The folder of state files; created when first needed. */
  readonly dir: string;
  readonly log: (line: string) => void;
  readonly maxFiles?: number;
  readonly maxBytes?: number;
}

export interface PrefixOutcome {
  /** Where the prefix came from: the sequence already held it, a state file, or it was evaluated now. */
  readonly source: 'memory' | 'file' | 'evaluated' | 'skipped';
  readonly prefixTokens: number;
}

/** The state files of evaluated prefixes, in one folder, bounded in count and size. */
export class PrefixStateCache {
  private readonly maxFiles: number;
  private readonly maxBytes: number;

  constructor(private readonly options: PrefixCacheOptions) {
    this.maxFiles = options.maxFiles ?? MAX_FILES;
    this.maxBytes = options.maxBytes ?? MAX_BYTES;
  }

  get dir(): string {
    return this.options.dir;
  }

  /** The name of the state of `tokens` evaluated by this model in a context of this size. */
  static key(model: string, contextSize: number, tokens: readonly Token[]): string {
    const hash = createHash('sha256');
    hash.update(JSON.stringify({ format: FORMAT, model, contextSize, binding: nodeLlamaCppVersion() }));
    hash.update(Buffer.from(Uint32Array.from(tokens).buffer));
    return hash.digest('hex').slice(0, 32);
  }

  private paths(key: string) {
    return { state: join(this.options.dir, `${key}.bin`), manifest: join(this.options.dir, `${key}.json`) };
  }

  private remove(key: string): void {
    const { state, manifest } = this.paths(key);
    rmSync(manifest, { force: true });
    rmSync(state, { force: true });
  }

  /**
   * Loads the saved state of `tokens` into the sequence, replacing what it holds. False when there is none,
   * or when the file is not whole or does not hold exactly these tokens: it is then deleted and the sequence
   * left empty.
   */
  async load(sequence: LlamaContextSequence, key: string, tokens: readonly Token[]): Promise<boolean> {
    const { state, manifest } = this.paths(key);
    let saved: Manifest;
    try {
      saved = JSON.parse(readFileSync(manifest, 'utf8')) as Manifest;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      this.options.log(`prefix cache: ${manifest} is unreadable (${String(error)}); evaluating the prefix again`);
      this.remove(key);
      return false;
    }
    try {
      const bytes = statSync(state).size;
      if (saved.format !== FORMAT || saved.key !== key || saved.tokens !== tokens.length || saved.bytes !== bytes) {
        throw new Error(`expected ${saved.bytes} bytes of ${saved.tokens} tokens, found ${bytes} bytes`);
      }
      await sequence.loadStateFromFile(state, { acceptRisk: true });
      const loaded = sequence.contextTokens;
      if (loaded.length !== tokens.length || loaded.some((token, i) => token !== tokens[i])) {
        throw new Error('the state holds other tokens');
      }
    } catch (error) {
      this.options.log(
        `prefix cache: ignoring ${state}: ${error instanceof Error ? error.message : String(error)}; evaluating the prefix again`,
      );
      this.remove(key);
      if (!sequence.disposed) await sequence.clearHistory();
      return false;
    }
    try {
      // Recently used files are kept longest.
      const now = new Date();
      utimesSync(manifest, now, now);
    } catch {
      // Only the eviction order suffers.
    }
    return true;
  }

  /**
   * Loads the most recently used state of this model file in a context of this size (the prefix its last task
   * started with), so a new task after a restart finds it already in the sequence. False when there is none.
   */
  async loadLatest(sequence: LlamaContextSequence, model: string): Promise<boolean> {
    let names: string[];
    try {
      names = readdirSync(this.options.dir).filter((name) => /^[0-9a-f]{32}\.json$/.test(name));
    } catch {
      return false;
    }
    const candidates: Array<{ manifest: Manifest; used: number }> = [];
    for (const name of names) {
      try {
        const path = join(this.options.dir, name);
        const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
        if (
          manifest.format === FORMAT &&
          manifest.model === model &&
          manifest.contextSize === sequence.contextSize &&
          manifest.binding === nodeLlamaCppVersion()
        ) {
          candidates.push({ manifest, used: statSync(path).mtimeMs });
        }
      } catch {
        // Unreadable: load() deals with it when its key is asked for.
      }
    }
    const latest = candidates.sort((a, b) => b.used - a.used)[0]?.manifest;
    if (!latest) return false;
    const { state } = this.paths(latest.key);
    try {
      if (statSync(state).size !== latest.bytes) throw new Error('the file is not whole');
      await sequence.loadStateFromFile(state, { acceptRisk: true });
      if (sequence.contextTokens.length !== latest.tokens) throw new Error('the state holds other tokens');
      if (PrefixStateCache.key(model, sequence.contextSize, sequence.contextTokens) !== latest.key) {
        throw new Error('the state does not match its name');
      }
    } catch (error) {
      this.options.log(`prefix cache: ignoring ${state}: ${error instanceof Error ? error.message : String(error)}`);
      this.remove(latest.key);
      if (!sequence.disposed) await sequence.clearHistory();
      return false;
    }
    await checkpoint(sequence);
    return true;
  }

  /** Saves the sequence's state, which must hold exactly `tokens`, through a temporary file and a rename. */
  async save(sequence: LlamaContextSequence, key: string, tokens: readonly Token[], model: string): Promise<void> {
    const { state, manifest } = this.paths(key);
    const partial = `${state}.${process.pid}.partial`;
    try {
      mkdirSync(this.options.dir, { recursive: true });
      const { fileSize } = await sequence.saveStateToFile(partial);
      renameSync(partial, state);
      const record: Manifest = {
        format: FORMAT,
        key,
        tokens: tokens.length,
        bytes: fileSize,
        model,
        contextSize: sequence.contextSize,
        binding: nodeLlamaCppVersion(),
      };
      writeFileSync(`${manifest}.partial`, JSON.stringify(record));
      renameSync(`${manifest}.partial`, manifest);
    } catch (error) {
      rmSync(partial, { force: true });
      this.options.log(
        `prefix cache: could not save ${state}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return;
    }
    this.prune(key);
  }

  /** Keeps the most recently used files within the bounds, and removes strays (a state without a manifest). */
  prune(keep?: string): void {
    let names: string[];
    try {
      names = readdirSync(this.options.dir);
    } catch {
      return;
    }
    const entries: Array<{ key: string; used: number; bytes: number }> = [];
    for (const name of names) {
      const path = join(this.options.dir, name);
      const match = /^([0-9a-f]{32})\.json$/.exec(name);
      if (match) {
        const key = match[1]!;
        try {
          entries.push({ key, used: statSync(path).mtimeMs, bytes: statSync(this.paths(key).state).size });
        } catch {
          this.remove(key);
        }
      } else if (name.endsWith('.bin') && !names.includes(name.replace(/\.bin$/, '.json'))) {
        rmSync(path, { force: true });
      } else if (name.includes('.partial')) {
        // Left by a crash while saving; another process saving at this moment would only lose its file.
        try {
          if (Date.now() - statSync(path).mtimeMs > 60_000) rmSync(path, { force: true });
        } catch {
          // Gone already.
        }
      }
    }
    entries.sort((a, b) => (a.key === keep ? -1 : b.key === keep ? 1 : b.used - a.used));
    let total = 0;
    entries.forEach((entry, index) => {
      total += entry.bytes;
      if (index > 0 && (index >= this.maxFiles || total > this.maxBytes)) this.remove(entry.key);
    });
  }
}

/**
 * Makes the sequence start with `tokens`: keeps what it already holds of them, else loads them from a state
 * file, else evaluates what is missing (between checks of `signal`) and saves the state. Anything the sequence
 * holds after the prefix is erased; the prompt that follows evaluates only its own tokens.
 */
export async function ensurePrefix(options: {
  readonly sequence: LlamaContextSequence;
  readonly tokens: readonly Token[];
  readonly cache: PrefixStateCache | undefined;
  readonly model: string;
  readonly signal: AbortSignal;
}): Promise<PrefixOutcome> {
  const { sequence, tokens, cache, signal } = options;
  if (tokens.length < MIN_CACHED_PREFIX_TOKENS) return { source: 'skipped', prefixTokens: tokens.length };
  let held = sequence.compareContextTokens([...tokens]).firstDifferentIndex;
  if (held >= tokens.length) return { source: 'memory', prefixTokens: tokens.length };
  const key = cache ? PrefixStateCache.key(options.model, sequence.contextSize, tokens) : undefined;
  if (cache && key && (await cache.load(sequence, key, tokens))) {
    await checkpoint(sequence);
    return { source: 'file', prefixTokens: tokens.length };
  }
  held = Math.min(held, sequence.nextTokenIndex);
  if (held < sequence.nextTokenIndex) {
    await sequence.eraseContextTokenRanges([{ start: held, end: sequence.nextTokenIndex }]);
  }
  for (let start = sequence.nextTokenIndex; start < tokens.length; start += EVALUATION_CHUNK) {
    if (signal.aborted) return { source: 'evaluated', prefixTokens: tokens.length };
    await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(start, start + EVALUATION_CHUNK));
  }
  await checkpoint(sequence);
  if (cache && key) await cache.save(sequence, key, tokens, options.model);
  return { source: 'evaluated', prefixTokens: tokens.length };
}

/**
 * Hybrid and recurrent models (Qwen3.5's linear-attention layers) cannot drop the tail of their state: a
 * checkpoint at the end of the prefix is what lets the next task go back to it instead of evaluating it again.
 */
async function checkpoint(sequence: LlamaContextSequence): Promise<void> {
  if (sequence.needsCheckpoints) await sequence.takeCheckpoint();
}
