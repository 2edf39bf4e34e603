import { RuleHostSchema } from '../../../src-shared/contract/index.js';

/**
 * The "Allow a host" field as a rule host: a host name, an IP address or `*`, lowercase, with no scheme, port or
 * path. A pasted address (https://mail.example.org:465/x) is cut to its host, since that is what a rule names.
 */
export function ruleHostFrom(input: string): { ok: true; host: string } | { ok: false; problem: string } {
  const trimmed = input.trim();
  if (trimmed === '') return { ok: false, problem: 'Type a host name, an IP address, or * for any host.' };
  let candidate = trimmed;
  if (/^[a-z][a-z0-9+.-]*:\/\//iu.test(trimmed)) {
    try {
      candidate = new URL(trimmed).hostname;
    } catch {
      return { ok: false, problem: `"${trimmed}" is not an address Homebody can read.` };
    }
  }
  const parsed = RuleHostSchema.safeParse(candidate);
  // One colon is a port (an IPv6 address has several): a rule names the host alone.
  if (!parsed.success || candidate.split(':').length === 2) {
    return {
      ok: false,
      problem: `"${candidate}" is not a host: use a name like mail.example.org, an IP address, or * (no port or path).`,
    };
  }
  return { ok: true, host: parsed.data };
}
