/**
 * The chat's one engine, whichever computer the model runs on: a model file opens in the local engine, a node's
 * reference (`remote:<id>`) in a RemoteEngine made for that node. The agent, the broker and the sandbox see a single
 * ChatEngine and never know which it is; only the replies' marks (ModelInfo.remote) tell.
 *
 * A change is safe either way, as the local engine's own changes are: the model in use stays until the new one is
 * ready, and a change that fails leaves it in use and rejects with why. Once the new one is ready the other side is
 * let go (the local model closed, so its memory is free while a node answers; the node's engine disposed).
 */
import { HomebodyError, isRemoteReference, type ModelState } from '../../src-shared/contract/index.js';
import type { ChatEngine, GenerateOptions, GenerateResult, PrepareRequest } from './engineTypes.js';

/** A local engine that can close its model without being disposed (LlamaEngine). */
export interface ClosableEngine extends ChatEngine {
  close(): Promise<ModelState>;
}

export interface RoutedEngineOptions<Local extends ClosableEngine> {
  readonly local: Local;
  /** A fresh engine for the node a reference names; throws MODEL_NOT_FOUND for a node that was removed. */
  readonly openRemote: (reference: string) => ChatEngine;
}

export class RoutedEngine<Local extends ClosableEngine = ClosableEngine> implements ChatEngine {
  readonly local: Local;
  private remote: ChatEngine | undefined;
  /** The engine the chat uses now. */
  private active: ChatEngine;
  /** The engine whose states the listeners hear: the active one, or one being loaded in its place. */
  private shown: ChatEngine;
  private readonly listeners = new Set<(state: ModelState) => void>();
  /** One change at a time: a second waits for the first to settle. */
  private changing: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: RoutedEngineOptions<Local>) {
    this.local = options.local;
    this.active = this.local;
    this.shown = this.local;
    this.follow(this.local);
  }

  get state(): ModelState {
    return this.shown.state;
  }

  /** The engine replies go to now (for the Doctor: the local one, or a node's). */
  get current(): ChatEngine {
    return this.active;
  }

  onStateChange(listener: (state: ModelState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private follow(engine: ChatEngine): void {
    engine.onStateChange((state) => {
      if (engine === this.shown) this.tell(state);
    });
  }

  private tell(state: ModelState): void {
    for (const listener of this.listeners) listener(state);
  }

  load(path: string): Promise<ModelState> {
    const change = () => (isRemoteReference(path) ? this.loadRemote(path) : this.loadLocal(path));
    // After the change before it, whether that one succeeded or not.
    const run = this.changing.then(change, change);
    this.changing = run.catch(() => undefined);
    return run;
  }

  private async loadLocal(path: string): Promise<ModelState> {
    if (this.active === this.local) return this.local.load(path);
    // A node is in use: the file opens beside it (nothing local is loaded), and the node goes once it is ready.
    const previous = this.active;
    this.shown = this.local;
    const state = await this.local.load(path);
    if (state.status === 'ready') {
      this.active = this.local;
      await this.letGoOfRemote();
      return state;
    }
    return this.keep(previous, state);
  }

  private async loadRemote(reference: string): Promise<ModelState> {
    const previous = this.active;
    let engine: ChatEngine;
    try {
      engine = this.options.openRemote(reference);
    } catch (error) {
      if (previous.state.status === 'ready') throw error;
      const known = error instanceof HomebodyError ? error : new HomebodyError('INTERNAL', String(error));
      const failed: ModelState = {
        status: 'error',
        path: reference,
        error: { code: known.code, message: known.message },
      };
      this.tell(failed);
      return failed;
    }
    this.follow(engine);
    this.shown = engine;
    const state = await engine.load(reference);
    if (state.status !== 'ready') {
      // Nothing was in use: the node's error is the state, as a first load's failure is.
      if (previous.state.status !== 'ready') {
        await this.replaceRemote(engine);
        this.active = engine;
        return state;
      }
      void engine.dispose();
      return this.keep(previous, state);
    }
    await this.replaceRemote(engine);
    this.active = engine;
    // The local model's memory is free while the node answers; it opens again when the user goes back to it.
    if (previous === this.local && this.local.state.status !== 'none') await this.local.close();
    return state;
  }

  /** After a change that failed: the model in use stays, and the caller is told why. */
  private keep(previous: ChatEngine, failed: ModelState): never {
    this.shown = previous;
    this.tell(previous.state);
    const reason = failed.status === 'error' ? failed.error : { code: 'MODEL_LOAD_FAILED' as const, message: '' };
    const name = previous.state.status === 'ready' ? previous.state.info.name : 'The model in use';
    throw new HomebodyError(reason.code, `${reason.message} ${name} is still the model in use.`);
  }

  private async replaceRemote(next: ChatEngine): Promise<void> {
    const old = this.remote;
    this.remote = next;
    if (old && old !== next) await old.dispose();
  }

  private async letGoOfRemote(): Promise<void> {
    const old = this.remote;
    this.remote = undefined;
    await old?.dispose();
  }

  generate(options: GenerateOptions): Promise<GenerateResult> {
    return this.active.generate(options);
  }

  checkMessage(text: string): void {
    this.active.checkMessage?.(text);
  }

  prepare(request: PrepareRequest): void {
    this.active.prepare?.(request);
  }

  /** Closes the model in use: the local one's file is let go, a node is disconnected. The state becomes none. */
  async close(): Promise<ModelState> {
    if (this.active !== this.local) {
      this.shown = this.local;
      this.active = this.local;
      await this.letGoOfRemote();
      this.tell(this.local.state);
    }
    return this.local.close();
  }

  async dispose(): Promise<void> {
    await this.letGoOfRemote();
    await this.local.dispose();
  }
}
