import { isIP } from 'node:net';
import type { EgressFeature, NetworkRule, NetworkSettings } from '../../src-shared/contract/index.js';

/** Offline, no exceptions: what a new install starts with (the contract's default). */
export const DEFAULT_NETWORK_SETTINGS: NetworkSettings = { offline: true, rules: [] };

/** Short names for messages: 'Allow "smtp.example.com" for Mail'. */
export const FEATURE_SHORT_NAMES: Readonly<Record<EgressFeature, string>> = {
  'model-download': 'Model downloads',
  web: 'Web tools',
  mail: 'Mail',
  mcp: 'MCP servers',
  'remote-model': 'Models on other computers',
};

/** What a feature connects for, in a sentence: "did not connect to X for mail". */
export const FEATURE_PURPOSES: Readonly<Record<EgressFeature, string>> = {
  'model-download': 'a model download',
  web: 'the web tools',
  mail: 'mail',
  mcp: 'an MCP server',
  'remote-model': 'a model on another computer',
};

/** A host as rules and the ledger compare it: lowercase, no IPv6 brackets, no trailing dot. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.') && h.length > 1) h = h.slice(0, -1);
  return h;
}

/** The rule that lets `feature` reach `host`: one naming the host exactly first, else the feature's `*` rule. */
export function matchingRule(
  rules: readonly NetworkRule[],
  feature: EgressFeature,
  host: string,
): { rule: NetworkRule; exact: boolean } | null {
  const wanted = normalizeHost(host);
  const exact = rules.find((r) => r.feature === feature && normalizeHost(r.host) === wanted);
  if (exact) return { rule: exact, exact: true };
  const any = rules.find((r) => r.feature === feature && r.host === '*');
  return any ? { rule: any, exact: false } : null;
}

/** Whether any rule, of any feature, names `host` exactly (used for connections no feature asked for). */
export function anyRuleNames(rules: readonly NetworkRule[], host: string): boolean {
  const wanted = normalizeHost(host);
  return rules.some((r) => normalizeHost(r.host) === wanted);
}

/** Adds `rule` unless the same feature and host are already there (hosts compared normalized). */
export function withRule(rules: readonly NetworkRule[], rule: NetworkRule): NetworkRule[] {
  const host = rule.host === '*' ? '*' : normalizeHost(rule.host);
  if (rules.some((r) => r.feature === rule.feature && (r.host === '*' ? '*' : normalizeHost(r.host)) === host)) {
    return [...rules];
  }
  return [...rules, { feature: rule.feature, host }];
}

/** Rules kept once each, hosts normalized, in their order. */
export function dedupeRules(rules: readonly NetworkRule[]): NetworkRule[] {
  return rules.reduce<NetworkRule[]>((kept, rule) => withRule(kept, rule), []);
}

type Range4 = readonly [number, number];
/** IPv4 ranges that never leave the machine or the local network: [network, prefix length]. */
const PRIVATE_V4: readonly Range4[] = [
  [ipv4ToInt('0.0.0.0'), 8], // "this network", 0.0.0.0 included
  [ipv4ToInt('10.0.0.0'), 8],
  [ipv4ToInt('100.64.0.0'), 10], // carrier-grade NAT
  [ipv4ToInt('127.0.0.0'), 8],
  [ipv4ToInt('169.254.0.0'), 16], // link-local (cloud metadata services live here)
  [ipv4ToInt('172.16.0.0'), 12],
  [ipv4ToInt('192.168.0.0'), 16],
];

function ipv4ToInt(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inRange4(address: number, [network, bits]: Range4): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(address / size) === Math.floor(network / size);
}

/** The 8 groups of an IPv6 address (zero-compressed or with a dotted IPv4 tail); null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const v4 = ipv4ToInt(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<number>(zeros).fill(0), ...right];
}

/**
 * True for an address that stays on this machine or the local network: loopback, private, link-local,
 * unique-local (fc00::/7), carrier-grade NAT, unspecified, and IPv4-mapped IPv6 forms of those. Names are not
 * resolved here: `localhost` and `*.localhost` count, other names are judged by the address they resolve to.
 */
export function isPrivateAddress(host: string): boolean {
  const h = normalizeHost(host);
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) {
    const n = ipv4ToInt(h);
    return PRIVATE_V4.some((range) => inRange4(n, range));
  }
  const groups = ipv6Groups(h);
  if (!groups) return false;
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (upperZero && g5 === 0 && g6 === 0 && (g7 === 0 || g7 === 1)) return true; // :: and ::1
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible forms carry an IPv4 address: judge that one.
  if (upperZero && (g5 === 0xffff || g5 === 0)) {
    return isPrivateAddress(`${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`);
  }
  if ((g0 & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  return false;
}
