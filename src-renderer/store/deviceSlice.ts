import type { StateCreator } from 'zustand/vanilla';
import type { DeviceAnswer } from '../../src-shared/contract/index.js';
import type { AppState, DeviceActions, DeviceData, StoreDeps } from './types.js';

/** What only the page can do in browser mode; the desktop app never sends these requests. */
export interface PageDevice {
  readClipboard(): Promise<string>;
  writeClipboard(text: string): Promise<void>;
  /** Shows a system notification when the browser allows it; false when it does not. */
  systemNotify(title: string, body: string): boolean;
  open(url: string): boolean;
}

export const initialDeviceData: DeviceData = { toasts: [], openRequest: null };

const MAX_TOASTS = 5;

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text || 'the browser refused').slice(0, 480);
}

export const createDeviceSlice =
  (deps: StoreDeps, page: PageDevice): StateCreator<AppState, [], [], DeviceData & DeviceActions> =>
  (set, get) => {
    let toastCount = 0;
    const answer = async (reply: DeviceAnswer) => {
      try {
        await deps.api['device.answer'](reply);
      } catch {
        // The Host stopped waiting (a timeout, a restart): nothing more to do here.
      }
    };
    return {
      ...initialDeviceData,

      showToast(title, body) {
        // The same notice twice at once (a reminder's notification and its event) is shown once.
        if (get().toasts.some((t) => t.title === title && t.body === body)) return;
        const toast = { id: `toast-${++toastCount}`, title, body };
        set({ toasts: [...get().toasts, toast].slice(-MAX_TOASTS) });
      },

      dismissToast(id) {
        set({ toasts: get().toasts.filter((t) => t.id !== id) });
      },

      async handleDeviceRequest({ id, request }) {
        switch (request.kind) {
          case 'clipboard-read':
            try {
              await answer({ id, ok: true, text: await page.readClipboard() });
            } catch (error) {
              await answer({ id, ok: false, message: `the browser refused clipboard access: ${errorText(error)}` });
            }
            return;
          case 'clipboard-write':
            try {
              await page.writeClipboard(request.text);
              await answer({ id, ok: true });
            } catch (error) {
              await answer({ id, ok: false, message: `the browser refused clipboard access: ${errorText(error)}` });
            }
            return;
          case 'notify': {
            const system = page.systemNotify(request.title, request.body);
            // Without the browser's permission the page's own toast is the notification.
            if (!system) get().showToast(request.title, request.body);
            await answer({ id, ok: true, shown: system ? 'system' : 'page' });
            return;
          }
          case 'open': {
            // A second request replaces an unanswered one, which is refused.
            const previous = get().openRequest;
            if (previous) await answer({ id: previous.id, ok: false, message: 'another address was asked to open' });
            set({ openRequest: { id, target: request.target } });
            return;
          }
          default:
            return request satisfies never;
        }
      },

      async answerOpen(open) {
        const request = get().openRequest;
        if (!request) return;
        set({ openRequest: null });
        if (!open) return answer({ id: request.id, ok: false, message: 'the user chose not to open it' });
        const opened = page.open(request.target);
        await answer(
          opened
            ? { id: request.id, ok: true }
            : { id: request.id, ok: false, message: 'the browser blocked the new tab' },
        );
      },
    };
  };

/** The browser's own clipboard, notifications and tabs. */
export function browserPageDevice(): PageDevice {
  return {
    readClipboard: () => navigator.clipboard.readText(),
    writeClipboard: (text) => navigator.clipboard.writeText(text),
    systemNotify(title, body) {
      if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
      try {
        new Notification(title, { body });
        return true;
      } catch {
        return false;
      }
    },
    open(url) {
      // Only web addresses; the Host checked too.
      if (!/^https?:/i.test(url)) return false;
      // With "noopener" window.open always answers null, so a blocked tab could not be told apart: the new tab
      // is cut off from this page by hand instead.
      const opened = window.open(url, '_blank');
      if (opened === null) return false;
      opened.opener = null;
      return true;
    },
  };
}
