import type { TokenProblem } from '../bridge/index.js';
import './accessToken.css';

const WHY: Record<TokenProblem, string> = {
  missing: 'This page was opened without its access token, so it cannot reach Homebody.',
  'not-accepted':
    'The address you opened carries an access token that this Homebody did not make: an old one, perhaps.',
  refused: 'Homebody no longer accepts the access token this tab kept: it has been started again since.',
};

/**
 * Browser mode without a usable token: the page says how to open Homebody, in the app's own style. The token is
 * made anew at every start and printed with the address; it is never kept in a cookie, so no other page has it.
 */
export function AccessTokenNotice({ problem, command }: { problem: TokenProblem; command: string | null }) {
  return (
    <main className="access-token" data-testid="access-token-notice" data-problem={problem}>
      <div className="card access-token-card">
        <h1>Open Homebody from its address</h1>
        <p className="lead">{WHY[problem]}</p>
        <p data-testid="access-token-command">
          Open the address that{' '}
          {command ? (
            <code>{command}</code>
          ) : (
            <>
              <code>homebody serve</code> or <code>npm start</code>
            </>
          )}{' '}
          printed in its terminal when it started, the one that ends in <code>?token=…</code>. A new one is made at
          every start.
        </p>
        <p className="muted">
          Once opened, this tab keeps the token for reloads. Other tabs and other sites never receive it.
        </p>
      </div>
    </main>
  );
}
