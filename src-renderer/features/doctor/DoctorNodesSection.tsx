import type { NodeCheck } from '../../../src-shared/contract/index.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { formatRate } from './doctorFormat.js';

/** Each model on another computer, measured when the report was made: the network's round trip and a short reply. */
export function DoctorNodesSection({ nodes }: { nodes: readonly NodeCheck[] }) {
  return (
    <section className="settings-section" aria-labelledby="doctor-nodes-heading">
      <h2 id="doctor-nodes-heading">Models on other computers</h2>
      <table className="tools-table doctor-models" data-testid="doctor-nodes">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Round trip</th>
            <th scope="col">First token</th>
            <th scope="col">Speed (tokens/s)</th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((node) => (
            <tr key={node.id} data-testid="doctor-node" data-node-id={node.id} data-ok={node.error ? 'false' : 'true'}>
              <th scope="row">
                {node.model}
                <span className="tool-description muted">
                  on {node.label}, {node.url}
                </span>
              </th>
              {node.error ? (
                <td colSpan={3}>
                  <ErrorNotice error={node.error} testId="doctor-node-error" />
                </td>
              ) : (
                <>
                  <td data-testid="doctor-node-round-trip">{formatMs(node.roundTripMs)}</td>
                  <td>{formatMs(node.ttftMs)}</td>
                  <td data-testid="doctor-node-speed">
                    {formatRate(node.tokensPerSecond)} reply
                    {node.completionTokens !== null && (
                      <span className="tool-description muted">measured on {node.completionTokens} tokens</span>
                    )}
                  </td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        Measured when this page opened: a listing of the server&apos;s models there and back, then a reply of up to 16
        tokens. Over a network the first token includes the round trip.
      </p>
    </section>
  );
}

function formatMs(ms: number | null): string {
  if (ms === null) return '?';
  return ms < 10 ? `${ms.toFixed(1)} ms` : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
