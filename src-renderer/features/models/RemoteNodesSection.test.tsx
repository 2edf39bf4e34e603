// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ModelState, NodeProbe } from '../../../src-shared/contract/index.js';
import { ApiCallError } from '../../bridge/apiError.js';
import { fakeHost, type FakeAnswers } from '../../testing/fakeHost.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { makeRemoteNode, remoteModelState } from '../../testing/testFixtures.js';
import { RemoteNodesSection } from './RemoteNodesSection.js';

const PIN = Array.from({ length: 32 }, (_, i) => (i * 7 + 16).toString(16).toUpperCase().padStart(2, '0')).join(':');

const HTTP_PROBE: NodeProbe = {
  url: 'http://192.168.1.20:8080',
  model: 'botpsy-q8',
  models: ['botpsy-q8', 'embedder'],
  contextSize: 8192,
  protocol: 'dialect',
  fingerprint: null,
  plainHttp: true,
};

const node = makeRemoteNode;

function section(answers: FakeAnswers = {}, modelState: ModelState = { status: 'none' }) {
  const host = fakeHost({ 'nodes.list': () => ({ nodes: [] }), ...answers });
  const rendered = renderWithStore(<RemoteNodesSection />, host, { modelState });
  return { ...rendered, host };
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('adding a model on another computer', () => {
  it('checks the server first, shows what it serves and that http is readable, then adds it as shown', async () => {
    const { host, user } = section({
      'nodes.probe': () => HTTP_PROBE,
      'nodes.add': (request) => node({ label: request.label ?? 'llama-server on 192.168.1.20:8080' }),
    });
    expect(await screen.findByTestId('remote-nodes-empty')).toBeTruthy();
    type('remote-node-url', '  http://192.168.1.20:8080/v1  ');
    type('remote-node-label', 'the study');
    await user.click(screen.getByTestId('remote-node-check'));

    const probe = await screen.findByTestId('remote-node-probe');
    expect(host.requestsTo('nodes.probe')).toEqual([{ url: 'http://192.168.1.20:8080/v1' }]);
    expect(screen.getByTestId('remote-node-probe-model').textContent).toBe('botpsy-q8');
    expect(screen.getByTestId('remote-node-probe-protocol').textContent).toBe(
      "llama-server, in the model's own format",
    );
    expect(probe.textContent).toContain('8,192 tokens');
    expect(probe.textContent).toContain('It also lists embedder');
    expect(screen.getByTestId('remote-node-probe-plain-http').textContent).toMatch(/unencrypted/);
    expect(screen.queryByTestId('remote-node-probe-fingerprint')).toBeNull();
    // Nothing is saved by a check.
    expect(host.requestsTo('nodes.add')).toEqual([]);

    await user.click(screen.getByTestId('remote-node-add'));
    await waitFor(() => expect(screen.getAllByTestId('remote-node')).toHaveLength(1));
    expect(host.requestsTo('nodes.add')).toEqual([{ url: HTTP_PROBE.url, model: 'botpsy-q8', label: 'the study' }]);
    expect(screen.getByTestId('remote-nodes-status').textContent).toBe('Added botpsy-q8 on the study.');
    expect(screen.queryByTestId('remote-node-probe')).toBeNull();
    expect(screen.getByTestId<HTMLInputElement>('remote-node-url').value).toBe('');
    expect(document.activeElement).toBe(screen.getByTestId('remote-node-url'));
    expect(screen.getByTestId('remote-node-plain-http')).toBeTruthy();
  });

  it("over https shows the certificate's fingerprint to compare, and pins the one shown", async () => {
    const probe: NodeProbe = { ...HTTP_PROBE, url: 'https://gpu.lan:8443', fingerprint: PIN, plainHttp: false };
    const { host, user } = section({
      'nodes.probe': () => probe,
      'nodes.add': () => node({ url: probe.url, fingerprint: PIN, hasApiKey: true, allowOffline: true }),
    });
    type('remote-node-url', 'https://gpu.lan:8443');
    type('remote-node-api-key', 'sk-secret');
    await user.click(screen.getByTestId('remote-node-allow-offline'));
    await user.click(screen.getByTestId('remote-node-check'));
    expect((await screen.findByTestId('remote-node-probe-fingerprint')).textContent).toContain(PIN);
    expect(screen.queryByTestId('remote-node-probe-plain-http')).toBeNull();
    expect(host.requestsTo('nodes.probe')).toEqual([
      { url: 'https://gpu.lan:8443', apiKey: 'sk-secret', allowOffline: true },
    ]);
    await user.click(screen.getByTestId('remote-node-add'));
    await waitFor(() => expect(host.requestsTo('nodes.add')).toHaveLength(1));
    expect(host.requestsTo('nodes.add')[0]).toEqual({
      url: probe.url,
      model: 'botpsy-q8',
      fingerprint: PIN,
      apiKey: 'sk-secret',
      allowOffline: true,
    });
    const row = await screen.findByTestId('remote-node');
    expect(row.textContent).toContain('Sealed in Homebody');
    expect(row.textContent).not.toContain('sk-secret');
    expect(within(row).getByTestId<HTMLInputElement>('remote-node-offline').checked).toBe(true);
  });

  it('Cancel or Esc forgets the answer without adding; the address can then be changed', async () => {
    const { host, user } = section({ 'nodes.probe': () => HTTP_PROBE });
    type('remote-node-url', HTTP_PROBE.url);
    await user.click(screen.getByTestId('remote-node-check'));
    expect(screen.getByTestId<HTMLInputElement>('remote-node-url').disabled).toBe(true);
    // The answer takes the focus (Check is gone), so Esc from the keyboard cancels at once.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('remote-node-probe')));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('remote-node-probe')).toBeNull());
    expect(screen.getByTestId<HTMLInputElement>('remote-node-url').disabled).toBe(false);
    expect(document.activeElement).toBe(screen.getByTestId('remote-node-url'));
    await user.click(screen.getByTestId('remote-node-check'));
    await user.click(await screen.findByTestId('remote-node-cancel'));
    await waitFor(() => expect(screen.queryByTestId('remote-node-probe')).toBeNull());
    expect(host.requestsTo('nodes.add')).toEqual([]);
  });

  it('a server that cannot be reached says why in place, and the form keeps what was typed', async () => {
    const why =
      'Homebody could not reach http://192.168.1.99:8080: the connection was refused. Is llama-server running there?';
    const { user } = section({
      'nodes.probe': () => {
        throw new ApiCallError('REMOTE_UNREACHABLE', why);
      },
    });
    type('remote-node-url', 'http://192.168.1.99:8080');
    await user.click(screen.getByTestId('remote-node-check'));
    const error = await screen.findByTestId('remote-node-probe-error');
    expect(error.textContent).toContain(why);
    expect(error.dataset.errorCode).toBe('REMOTE_UNREACHABLE');
    expect(screen.getByTestId<HTMLInputElement>('remote-node-url').value).toBe('http://192.168.1.99:8080');
    expect(screen.queryByTestId('remote-node-probe')).toBeNull();
  });

  it('an empty address is refused before anything is asked', async () => {
    const { host } = section();
    type('remote-node-url', '   ');
    expect(screen.getByTestId<HTMLButtonElement>('remote-node-check').disabled).toBe(true);
    fireEvent.submit(screen.getByTestId('remote-node-form'));
    expect((await screen.findByTestId('remote-node-probe-error')).textContent).toMatch(/Enter the server's address/);
    expect(host.requestsTo('nodes.probe')).toEqual([]);
  });
});

describe('a model on another computer the user added', () => {
  it('Use connects it, and the row says it is in use', async () => {
    const ready = remoteModelState(node());
    const { host, user, store } = section({
      'nodes.list': () => ({ nodes: [node()] }),
      'nodes.use': () => {
        store.getState().applyEvent({ type: 'model.state', state: ready });
        return ready;
      },
    });
    await user.click(await screen.findByTestId('remote-node-use'));
    expect(host.requestsTo('nodes.use')).toEqual([{ id: 'n1' }]);
    expect(await screen.findByTestId('remote-node-ready')).toBeTruthy();
    expect(screen.getByTestId('remote-node').dataset.engine).toBe('ready');
    expect(screen.getByTestId<HTMLButtonElement>('remote-node-use').disabled).toBe(true);
  });

  it('a node that cannot be reached shows why on its row; the model in use is left as it was', async () => {
    const why =
      'The study (http://192.168.1.20:8080) did not answer within 10 s. The model in use is still the model in use.';
    const { user } = section({
      'nodes.list': () => ({ nodes: [node()] }),
      'nodes.use': () => {
        throw new ApiCallError('REMOTE_TIMEOUT', why);
      },
    });
    await user.click(await screen.findByTestId('remote-node-use'));
    expect((await screen.findByTestId('remote-node-error')).textContent).toContain(why);
  });

  it('Remove asks first, then forgets it', async () => {
    const { host, user } = section({
      'nodes.list': () => ({ nodes: [node()] }),
      'nodes.remove': ({ id }) => ({ id, message: 'Removed botpsy-q8 on the study.' }),
    });
    await user.click(await screen.findByTestId('remote-node-remove'));
    expect(host.requestsTo('nodes.remove')).toEqual([]);
    expect(screen.getByTestId('confirm-dialog').textContent).toContain('its sealed API key and its offline rule');
    await user.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(screen.queryByTestId('remote-node')).toBeNull());
    expect(host.requestsTo('nodes.remove')).toEqual([{ id: 'n1' }]);
    expect(screen.getByTestId('remote-nodes-status').textContent).toBe('Removed botpsy-q8 on the study.');
  });

  it('the offline toggle sets its rule and shows the answer', async () => {
    const { host, user } = section({
      'nodes.list': () => ({ nodes: [node()] }),
      'nodes.setAllowOffline': ({ allow }) => node({ allowOffline: allow }),
    });
    const toggle = await screen.findByTestId<HTMLInputElement>('remote-node-offline');
    await user.click(toggle);
    await waitFor(() => expect(toggle.checked).toBe(true));
    expect(host.requestsTo('nodes.setAllowOffline')).toEqual([{ id: 'n1', allow: true }]);
  });
});
