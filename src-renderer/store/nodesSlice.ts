import type { StateCreator } from 'zustand/vanilla';
import type { AppError, RemoteNode } from '../../src-shared/contract/index.js';
import { toAppError } from '../bridge/apiError.js';
import type { AppState, NodeInputs, NodesActions, NodesData, Outcome, StoreDeps } from './types.js';
import { keyedActions } from './keyedActions.js';

export const initialNodesData: NodesData = {
  nodes: null,
  nodesError: null,
  nodeProbe: null,
  nodesPending: new Set(),
  nodesActionErrors: {},
};

/** The optional fields of nodes.probe / nodes.add, left out when empty (the contract refuses an empty key or name). */
function optional(inputs: NodeInputs) {
  const apiKey = inputs.apiKey?.trim();
  const label = inputs.label?.trim();
  return {
    ...(apiKey ? { apiKey } : {}),
    ...(label ? { label } : {}),
    ...(inputs.allowOffline ? { allowOffline: true } : {}),
  };
}

function upsert(nodes: RemoteNode[], node: RemoteNode): RemoteNode[] {
  return nodes.some((n) => n.id === node.id) ? nodes.map((n) => (n.id === node.id ? node : n)) : [...nodes, node];
}

/**
 * "A model on another computer" on the Models page: a server is checked first (nothing saved), shown, then added
 * as it was shown; the Host announces no change to the list, so each action patches it from its own answer. Which
 * node is in use is read from the model state (its path is `remote:<id>`), which events keep current.
 */
export const createNodesSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], NodesData & NodesActions> =>
  (set, get) => {
    let listRequest = 0;

    const { setPending, setActionError, act } = keyedActions(set, 'nodesPending', 'nodesActionErrors');

    const refuse = <T>(key: string, message: string): Outcome<T> => {
      const error: AppError = { code: 'INVALID_REQUEST', message };
      setActionError(key, error);
      return { ok: false, error };
    };

    /**
     * Patches the list from an action's answer. A list asked for before that answer may lack it, so it is dropped;
     * if none was loaded yet, the whole list is asked for (the patch alone would show only this node).
     */
    const patchList = (change: (nodes: RemoteNode[]) => RemoteNode[]) => {
      ++listRequest;
      const nodes = get().nodes;
      if (nodes === null) void get().loadNodes();
      else set({ nodes: change(nodes) });
    };

    /** An offline rule added or taken away for a node: the Privacy page, if it was loaded, shows it. */
    const networkChanged = () => {
      if (get().privacyNetwork !== null) void get().loadNetwork();
    };

    return {
      ...initialNodesData,

      async loadNodes() {
        const mine = ++listRequest;
        try {
          const { nodes } = await deps.api['nodes.list']({});
          if (mine === listRequest) set({ nodes, nodesError: null });
        } catch (error) {
          if (mine === listRequest) set({ nodesError: toAppError(error) });
        }
      },

      async probeNode(url, inputs) {
        const typed = url.trim();
        set({ nodeProbe: null });
        setActionError('add', null);
        if (!typed) return refuse('probe', "Enter the server's address, such as http://192.168.1.20:8080.");
        const { label: _label, ...request } = optional(inputs);
        const outcome = await act('probe', 'probe', () => deps.api['nodes.probe']({ url: typed, ...request }));
        if (outcome.ok) set({ nodeProbe: outcome.value });
        if (inputs.allowOffline) networkChanged();
        return outcome;
      },

      async addNode(inputs) {
        const probe = get().nodeProbe;
        if (!probe) return refuse('add', 'Check the server first: what it serves is shown before it is added.');
        const outcome = await act('add', 'add', () =>
          deps.api['nodes.add']({
            // Exactly what the check showed: its URL, its model, and over https the certificate the user compared.
            url: probe.url,
            model: probe.model,
            ...(probe.fingerprint ? { fingerprint: probe.fingerprint } : {}),
            ...optional(inputs),
          }),
        );
        if (outcome.ok) {
          set({ nodeProbe: null });
          patchList((nodes) => upsert(nodes, outcome.value));
          if (inputs.allowOffline) networkChanged();
        }
        return outcome;
      },

      cancelNodeProbe() {
        set({ nodeProbe: null });
        setActionError('add', null);
      },

      async removeNode(id) {
        // The confirmation dialog shows this error itself.
        setPending(`remove:${id}`, true);
        try {
          const removed = await deps.api['nodes.remove']({ id });
          patchList((nodes) => nodes.filter((n) => n.id !== id));
          setActionError(id, null);
          networkChanged();
          return { ok: true, value: removed };
        } catch (error) {
          return { ok: false, error: toAppError(error) };
        } finally {
          setPending(`remove:${id}`, false);
        }
      },

      async setNodeAllowOffline(id, allow) {
        const outcome = await act(`offline:${id}`, id, () => deps.api['nodes.setAllowOffline']({ id, allow }));
        if (!outcome.ok) return outcome.error;
        patchList((nodes) => upsert(nodes, outcome.value));
        networkChanged();
        return null;
      },

      async useNode(id) {
        const outcome = await act(`use:${id}`, id, () => deps.api['nodes.use']({ id }));
        // Which node is active changed (or a failed connection left the model in use as it was): list them again.
        void get().loadNodes();
        if (!outcome.ok) return outcome.error;
        if (outcome.value.status === 'error') {
          setActionError(id, outcome.value.error);
          return outcome.value.error;
        }
        return null;
      },

      dismissNodesError(key) {
        setActionError(key, null);
      },
    };
  };
