/**
 * What a stopped stdio server's stderr says about why it stopped. Servers print a start-up banner there ("Secure
 * MCP Filesystem Server running on stdio") and, when they crash, an error followed by noise: Node's stack frames and
 * version line, Python's traceback frames, npm's log pointers. The reason is the last line that reads like an
 * error, with what directly follows it; the banner is never offered as a reason.
 */

const MAX_LINES = 3;
const MAX_CHARS = 500;

/** Lines that are never the reason: stack frames, source excerpts under a frame, version and log-file pointers. */
const NOISE: readonly RegExp[] = [
  /^\s+at\s/, // Node: "    at Object.<anonymous> (/srv/index.js:3:9)"
  /^\s*\^+\s*$/, // Node and Python: the caret under the failing code
  /^Node\.js v\d/, // Node's version line after an uncaught error
  /^\s*File ".*", line \d+/, // Python traceback frame
  /^Traceback \(most recent call last\):/,
  /^npm (ERR!|error) (A complete log|Log files were not written|\s*$)/,
  /^npm (ERR!|error) .*\.log$/,
  /^\s*[{}]\s*$/, // the braces around an error's printed properties
];

/** A line that states a failure: an exception's name, or the words programs use for one. */
const ERRORISH =
  /(^\s*(Uncaught\s+)?[A-Za-z_.]*(Error|Exception|Panic)\b)|(^\s*(panic|fatal|error|critical)\b)|\b(error|exception|fatal|panic(ked)?|failed|failure|cannot|can't|could not|unable to|not found|no such|denied|refused|invalid|missing|required|not set|unauthori[sz]ed|forbidden|timed out|aborted|killed|out of memory)\b/i;

/** A Python traceback's source line sits under its frame: indented, after a `File "...", line N` line. */
function dropNoise(lines: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (NOISE.some((pattern) => pattern.test(line))) continue;
    const previous = lines[i - 1];
    if (previous !== undefined && /^\s*File ".*", line \d+/.test(previous) && /^\s{4,}\S/.test(line)) continue;
    kept.push(line);
  }
  return kept;
}

function bounded(lines: readonly string[]): string {
  const text = lines
    .map((line) => line.trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    // The sentence around it ends with its own full stop.
    .replace(/[.\s]+$/, '');
  return text.length > MAX_CHARS ? `…${text.slice(-MAX_CHARS)}` : text;
}

/**
 * The error that stderr ends with, in at most three lines: the last line that reads like an error and the lines
 * after it (noise dropped). Null when nothing in it reads like an error.
 */
export function errorFromOutput(stderr: string): string | null {
  const lines = dropNoise(stderr.split(/\r?\n/).filter((line) => line.trim() !== ''));
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!ERRORISH.test(lines[i]!)) continue;
    // An error's message may go on a line or two; "Error: x" with its printed properties is one reason.
    return bounded(lines.slice(i, i + MAX_LINES));
  }
  return null;
}

/** The last few lines of output, noise dropped (what a server printed, when none of it reads like an error). */
export function lastOutput(stderr: string): string | null {
  const lines = dropNoise(stderr.split(/\r?\n/).filter((line) => line.trim() !== ''));
  return lines.length ? bounded(lines.slice(-MAX_LINES)) : null;
}
