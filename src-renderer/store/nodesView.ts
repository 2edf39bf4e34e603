import { remoteReference, type ModelState, type RemoteNode } from '../../src-shared/contract/index.js';

/** How Homebody speaks to a node, in words for people. */
export function protocolLabel(protocol: RemoteNode['protocol']): string {
  switch (protocol) {
    case 'dialect':
      return "llama-server, in the model's own format";
    case 'openai':
      return 'OpenAI-compatible API';
    default:
      return protocol satisfies never;
  }
}

/**
 * Where a node stands as the chat's model, from the model state (its path is `remote:<id>`): the list's `active`
 * is only as new as the last nodes.list, while `model.state` events keep the state current.
 */
export function nodeEngineState(
  node: Pick<RemoteNode, 'id'>,
  state: ModelState | null,
): 'connecting' | 'ready' | 'error' | 'idle' {
  const path = remoteReference(node.id);
  if (!state || state.status === 'none') return 'idle';
  if (state.status === 'loading') return state.path === path ? 'connecting' : 'idle';
  if (state.status === 'ready') return state.info.path === path ? 'ready' : 'idle';
  return state.path === path ? 'error' : 'idle';
}
