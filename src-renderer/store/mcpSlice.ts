import type { StateCreator } from 'zustand/vanilla';
import type { AppError, McpServerView } from '../../src-shared/contract/index.js';
import { toAppError } from '../bridge/apiError.js';
import type { ActionResult, AppState, McpActions, McpData, StoreDeps } from './types.js';

export const initialMcpData: McpData = { mcpServers: null, mcpError: null, mcpBusy: [] };

/** Settings › MCP servers: each action answers with the whole list; status changes arrive as events. */
export const createMcpSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], McpData & McpActions> =>
  (set, get) => {
    const change = async (
      busyName: string | null,
      call: () => Promise<{ servers: McpServerView[] }>,
    ): Promise<ActionResult> => {
      if (busyName) set({ mcpBusy: [...get().mcpBusy, busyName] });
      set({ mcpError: null });
      try {
        const { servers } = await call();
        set({ mcpServers: servers });
        return null;
      } catch (error) {
        const appError = toAppError(error);
        set({ mcpError: appError });
        return appError;
      } finally {
        if (busyName) set({ mcpBusy: get().mcpBusy.filter((n) => n !== busyName) });
      }
    };
    return {
      ...initialMcpData,
      async loadMcp() {
        await change(null, () => deps.api['mcp.list']({}));
      },
      addMcpServer: (server) => change(null, () => deps.api['mcp.add']({ server })),
      importMcpJson: (text) => change(null, () => deps.api['mcp.import']({ text })),
      removeMcpServer: (name) => change(name, () => deps.api['mcp.remove']({ name })),
      setMcpEnabled: (name, enabled) => change(name, () => deps.api['mcp.setEnabled']({ name, enabled })),
      restartMcpServer: (name) => change(name, () => deps.api['mcp.restart']({ name })),
      reviewMcpTool: (server, tool) => change(server, () => deps.api['mcp.review']({ server, tool })),
      setMcpRisk: (server, tool, risk) => change(server, () => deps.api['mcp.setRisk']({ server, tool, risk })),
      setMcpTrustAnnotations: (name, trust) => change(name, () => deps.api['mcp.setTrustAnnotations']({ name, trust })),
      async answerMcpConfirmation(id, code) {
        try {
          const { accepted } = await deps.api['mcp.confirmCommand']({ id, code });
          if (accepted || code === null) return null;
          const expired: AppError = {
            code: 'INVALID_REQUEST',
            message:
              'This confirmation has ended (it expired or was answered). Switch the server on again to be asked again.',
          };
          set({ mcpError: expired });
          return expired;
        } catch (error) {
          const appError = toAppError(error);
          set({ mcpError: appError });
          return appError;
        }
      },
      showMcpError: (error) => set({ mcpError: error }),
    };
  };
