import type { ToolCall } from '../../src-shared/contract/index.js';
import { useAppStore } from '../store/StoreContext.js';
import { taintWarning, toolBadge } from './toolFormat.js';

/** A call's title, risk, summary, the exact values it will use, and the warning about untrusted content. */
export function ToolCallDetails({ call, titleAs = 'h3' }: { call: ToolCall; titleAs?: 'h2' | 'h3' }) {
  const Title = titleAs;
  const warning = taintWarning(call.taint);
  // What the tool touches, once the tools list is in: "Changes files", "Uses your device"; else by risk alone.
  const touches = useAppStore((s) => s.tools.find((tool) => tool.name === call.tool)?.touches ?? null);
  return (
    <>
      <div className="toolcall-head">
        <Title className="toolcall-title">{call.description.title}</Title>
        <span className={`risk-badge risk-${call.risk}`} data-testid="risk-badge" data-risk={call.risk}>
          {toolBadge(call.risk, touches)}
        </span>
      </div>
      {call.description.summary && <p className="toolcall-summary">{call.description.summary}</p>}
      {call.description.details.length > 0 && (
        <dl className="toolcall-details">
          {call.description.details.map((d, i) => (
            <div className="toolcall-detail" key={`${d.label}-${i}`}>
              <dt>{d.label}</dt>
              <dd>
                <code>{d.value}</code>
              </dd>
            </div>
          ))}
        </dl>
      )}
      {warning && (
        <p className="taint-warning" role="note" data-testid="taint-warning">
          {warning}
        </p>
      )}
    </>
  );
}
