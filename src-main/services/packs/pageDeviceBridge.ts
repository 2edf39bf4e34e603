import { randomUUID } from 'node:crypto';
import type { DeviceAnswer, HostEvent } from '../../../src-shared/contract/index.js';
import { checkExternalUrl, looksLikeUrl } from '../../tools/builtin/device/externalUrl.js';
import { ToolError, type DeviceRequest, type JsonValue } from '../../tools/toolTypes.js';
import type { DeviceBridge } from './deviceBridge.js';

/** How long the page has to answer: opening waits for the user's click in the page, the rest is immediate. */
export const PAGE_ANSWER_TIMEOUT_MS: Record<DeviceRequest['kind'], number> = {
  'clipboard-read': 15_000,
  'clipboard-write': 15_000,
  notify: 15_000,
  open: 120_000,
};

interface Waiting {
  readonly kind: DeviceRequest['kind'];
  resolve(value: JsonValue): void;
  reject(error: Error): void;
  readonly timer: ReturnType<typeof setTimeout>;
}

export interface PageDeviceBridgeOptions {
  readonly timeoutMs?: Partial<Record<DeviceRequest['kind'], number>>;
  readonly newId?: () => string;
  readonly setTimer?: (fn: () => void, ms: number) => ReturnType<typeof setTimeout>;
  readonly clearTimer?: (timer: ReturnType<typeof setTimeout>) => void;
}

/**
 * Browser mode's bridge: each request goes to the connected page as a `device.request` event, and the call waits
 * for the page's `device.answer` (the first answer wins when several tabs are open). With no page connected, or no
 * answer in time, the tool gets a clear UNAVAILABLE error.
 */
export class PageDeviceBridge implements DeviceBridge {
  private emit: ((event: HostEvent) => void) | undefined;
  private pages = 0;
  private readonly waiting = new Map<string, Waiting>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: PageDeviceBridgeOptions = {}) {}

  connect(emit: (event: HostEvent) => void): void {
    this.emit = emit;
  }

  /** The server tells how many pages listen to the Host's events now. */
  setConnectedPages(count: number): void {
    const before = this.pages;
    this.pages = count;
    if (before === 0 && count > 0) for (const listener of [...this.listeners]) listener();
  }

  onAvailable(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  handle(request: DeviceRequest): Promise<JsonValue> {
    const emit = this.emit;
    if (!emit || this.pages === 0) {
      return Promise.reject(
        new ToolError(
          'UNAVAILABLE',
          `No Homebody page is open to ${describe(request)}; open the address that \`homebody serve\` printed.`,
        ),
      );
    }
    if (request.kind === 'open' && !looksLikeUrl(request.target)) {
      return Promise.reject(
        new ToolError(
          'UNAVAILABLE',
          `A browser page cannot open files; open ${request.target} yourself, or use the desktop app.`,
        ),
      );
    }
    if (request.kind === 'open') {
      const checked = checkExternalUrl(request.target);
      if (!checked.ok) return Promise.reject(new ToolError('INVALID_INPUT', checked.reason));
    }
    const id = (this.options.newId ?? randomUUID)();
    const ms = this.options.timeoutMs?.[request.kind] ?? PAGE_ANSWER_TIMEOUT_MS[request.kind];
    const setTimer = this.options.setTimer ?? setTimeout;
    return new Promise<JsonValue>((resolve, reject) => {
      const timer = setTimer(() => {
        this.waiting.delete(id);
        reject(
          new ToolError(
            'UNAVAILABLE',
            `The Homebody page did not ${describe(request)} within ${Math.round(ms / 1000)} s` +
              (request.kind === 'open' ? ' (nobody clicked Open).' : '.'),
          ),
        );
      }, ms);
      this.waiting.set(id, { kind: request.kind, resolve, reject, timer });
      emit({ type: 'device.request', id, request });
    });
  }

  answer(answer: DeviceAnswer): boolean {
    const waiting = this.waiting.get(answer.id);
    if (!waiting) return false;
    this.waiting.delete(answer.id);
    (this.options.clearTimer ?? clearTimeout)(waiting.timer);
    if (!answer.ok) {
      waiting.reject(
        new ToolError('UNAVAILABLE', `The page could not ${describe({ kind: waiting.kind })}: ${answer.message}`),
      );
      return true;
    }
    if (waiting.kind === 'clipboard-read') {
      if (answer.text === undefined) {
        waiting.reject(new ToolError('UNAVAILABLE', "The page answered without the clipboard's text."));
      } else {
        waiting.resolve({ text: answer.text });
      }
      return true;
    }
    waiting.resolve(answer.shown ? { done: true, shown: answer.shown } : { done: true });
    return true;
  }

  /** Requests still waiting fail at once (the Host is closing). */
  dispose(): void {
    for (const [id, waiting] of this.waiting) {
      (this.options.clearTimer ?? clearTimeout)(waiting.timer);
      waiting.reject(new ToolError('UNAVAILABLE', 'Homebody is closing.'));
      this.waiting.delete(id);
    }
  }
}

function describe(request: { kind: DeviceRequest['kind'] }): string {
  switch (request.kind) {
    case 'clipboard-read':
      return 'read the clipboard';
    case 'clipboard-write':
      return 'copy to the clipboard';
    case 'open':
      return 'open it';
    case 'notify':
      return 'show the notification';
    default:
      return request.kind satisfies never;
  }
}
