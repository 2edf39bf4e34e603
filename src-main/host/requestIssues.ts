import type { z } from 'zod';

/** How many of a request's problems an error names; the rest are counted. */
const MAX_LISTED = 3;
/** A field path or a problem longer than this is cut: it may echo a key or a value the caller sent. */
const MAX_PART = 120;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A refused request's problems in one short sentence that names each field. Bounded whatever was sent: a list of
 * 100,000 wrong ids, or a 10,000-character unknown key, must not come back as a multi-megabyte error message.
 */
export function describeIssues(error: z.ZodError): string {
  const listed = error.issues
    .slice(0, MAX_LISTED)
    .map(
      (issue) =>
        `${clip(issue.path.length ? issue.path.map(String).join('.') : 'request', MAX_PART)}: ${clip(issue.message, MAX_PART)}`,
    );
  const more = error.issues.length - listed.length;
  return listed.join('; ') + (more > 0 ? ` (and ${more} more ${more === 1 ? 'problem' : 'problems'})` : '');
}
