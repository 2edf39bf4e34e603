import { rmSync } from 'node:fs';
import { HomebodyError, type HostEvent } from '../../../src-shared/contract/index.js';
import type { Store } from '../../store/store.js';
import { isInside, placeBytes, type StoragePlace } from './storageReport.js';

/** The tables that describe the downloaded models; kept unless the models go too. */
const MODEL_TABLES = ['models', 'model_downloads'] as const;

/** How many times the wipe waits for replies that started while it was stopping the others. */
const MAX_QUIET_TRIES = 3;

export interface DataWipeDeps {
  readonly dataDir: string;
  readonly store: Store;
  /** Where Homebody keeps data now (asked at the time of the deletion: the pack folders may have moved). */
  readonly places: () => StoragePlace[];
  /**
   * Stops what could write while the data goes: running replies (and the tool calls they run), and, when the
   * models go, downloads and a loaded model whose file is deleted.
   */
  readonly stopActivity: (includeModels: boolean) => Promise<void>;
  /** A reply is being written now. */
  readonly replying: () => boolean;
  /**
   * In-memory copies of what was stored (the policy, the network rules) go back to a new install's, and what was
   * built from it (MCP servers) is let go. Runs right after the wipe, before the event; what it awaits runs after
   * the data is gone, so a refused deletion has touched none of it.
   */
  readonly reset: () => Promise<void> | void;
  readonly emit: (event: HostEvent) => void;
  readonly now?: () => number;
}

export interface DeleteAllResult {
  readonly deletedBytes: number;
  /** The labels of the places emptied or removed, as the storage report names them. */
  readonly removed: string[];
}

/**
 * "Delete all my data". Once the activity that could write is stopped, the rest runs without yielding to the event
 * loop (synchronous SQLite and file removal), so no call can land halfway. What stays afterwards: the downloaded
 * models unless asked, folders of the user's own outside the data folder, the other files of the data folder (the
 * desktop window's storage), and one audit event saying that everything was deleted: a record of the deletion
 * itself, holding none of what was deleted.
 */
export class DataWipe {
  private running = false;
  private readonly now: () => number;

  constructor(private readonly deps: DataWipeDeps) {
    this.now = deps.now ?? Date.now;
  }

  async deleteAll(includeModels: boolean): Promise<DeleteAllResult> {
    if (this.running) throw new HomebodyError('TASK_BUSY', 'Your data is already being deleted.');
    this.assertNoIrreversibleRunning();
    this.running = true;
    try {
      const places = () => this.deps.places().filter((place) => goes(place, includeModels));
      for (let tries = 1; ; tries++) {
        await this.deps.stopActivity(includeModels);
        const measured = await measure(places());
        // A reply may have started while the others were stopping or the sizes were read: the wipe goes on
        // only when nothing runs, checked with no await between the check and the wipe.
        if (!this.deps.replying()) {
          this.assertNoIrreversibleRunning();
          return await this.wipe(includeModels, measured);
        }
        if (tries >= MAX_QUIET_TRIES) {
          throw new HomebodyError(
            'TASK_BUSY',
            'Replies kept starting while your data was being deleted; nothing was deleted. Try again.',
          );
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async wipe(includeModels: boolean, { places, before }: Measured): Promise<DeleteAllResult> {
    const { store, dataDir } = this.deps;
    // From here to the event, nothing awaits: no other call runs in between.
    store.wipe(includeModels ? [] : [...MODEL_TABLES]);
    for (const place of places) {
      if (place.onDelete === 'wipe') continue;
      for (const path of place.paths) {
        // Defense in depth: whatever the places say, nothing outside the data folder is removed.
        if (!isInside(dataDir, path) || isInside(path, dataDir)) continue;
        rmSync(path, { recursive: true, force: true });
      }
    }
    store.audit.append({
      at: this.now(),
      taskId: null,
      callId: null,
      kind: 'data-deleted',
      actor: 'user',
      summary: includeModels
        ? 'All data was deleted, downloaded models included'
        : 'All data was deleted (downloaded models kept)',
      detail: null,
    });
    store.checkpoint();
    await this.deps.reset();
    this.deps.emit({ type: 'privacy.dataDeleted' });
    const { before: after } = await measure(places);
    const deletedBytes = before.reduce((sum, bytes, i) => sum + Math.max(0, bytes - (after[i] ?? 0)), 0);
    return { deletedBytes, removed: places.filter((_, i) => (before[i] ?? 0) > 0).map((place) => place.label) };
  }

  /** An irreversible call running now (a mail being sent) is let finish: its record must survive it. */
  private assertNoIrreversibleRunning(): void {
    const running = this.deps.store.toolCalls.executing().filter((call) => call.risk === 'irreversible');
    if (running.length === 0) return;
    const tools = [...new Set(running.map((call) => call.tool))].join(', ');
    throw new HomebodyError(
      'TASK_BUSY',
      `An action that cannot be undone is running (${tools}); nothing was deleted. Try again once it has finished.`,
    );
  }
}

interface Measured {
  readonly places: readonly StoragePlace[];
  /** Each place's bytes, in the same order. */
  readonly before: readonly number[];
}

async function measure(places: readonly StoragePlace[]): Promise<Measured> {
  const before: number[] = [];
  for (const place of places) before.push(await placeBytes(place));
  return { places, before };
}

function goes(place: StoragePlace, includeModels: boolean): boolean {
  switch (place.onDelete) {
    case 'wipe':
    case 'remove':
      return true;
    case 'remove-with-models':
      return includeModels;
    case 'keep':
      return false;
    default:
      return place.onDelete satisfies never;
  }
}
