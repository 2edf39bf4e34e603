import { useMemo } from 'react';
import { splitHighlights } from '../store/historyView.js';

/** A search snippet with its matched words in <mark>; the text is always rendered as text, never as HTML. */
export function HighlightedSnippet({
  text,
  highlights,
  className,
}: {
  text: string;
  highlights: readonly (readonly [number, number])[];
  className?: string;
}) {
  const parts = useMemo(() => splitHighlights(text, highlights), [text, highlights]);
  return (
    <span className={className} data-testid="search-snippet">
      {parts.map((part, i) => (part.marked ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </span>
  );
}
