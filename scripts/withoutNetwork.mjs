#!/usr/bin/env node
// Runs a command with the network cut: in a new network namespace whose only interface is loopback (`unshare -n`).
// The end-to-end suite runs this way, so a test passes only if Homebody works with nothing but 127.0.0.1.
// Where namespaces are not available (no root and no user namespaces, or no `ip`), the command runs as is and
// this says why. HOMEBODY_E2E_NETWORK=1 skips the isolation on purpose.
import { spawnSync } from 'node:child_process';

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: node scripts/withoutNetwork.mjs COMMAND [ARGS...]');
  process.exit(2);
}

// Inside the namespace: bring loopback up, prove no other interface exists, then become the command.
const INSIDE = 'ip link set lo up && test "$(ip -o link show | wc -l)" = 1 && exec "$@"';

/** The unshare invocations to try: as root, then as an unprivileged user mapped to root in a user namespace. */
const ATTEMPTS = [
  ['unshare', '-n'],
  ['unshare', '-rn'],
];

function works(prefix) {
  const probe = spawnSync(prefix[0], [...prefix.slice(1), 'sh', '-c', INSIDE, 'probe', 'true'], { stdio: 'ignore' });
  return probe.status === 0;
}

function run(argv, env) {
  const result = spawnSync(argv[0], argv.slice(1), { stdio: 'inherit', env });
  if (result.error) {
    console.error(`[homebody] could not run ${argv[0]}: ${result.error.message}`);
    process.exit(127);
  }
  process.exit(result.status ?? 1);
}

if (process.env.HOMEBODY_E2E_NETWORK === '1') {
  console.log('[homebody] HOMEBODY_E2E_NETWORK=1: running with the network, as asked.');
  run(command, process.env);
}

const prefix = ATTEMPTS.find(works);
if (!prefix) {
  console.log(
    '[homebody] cannot cut the network here (unshare -n needs root or user namespaces, and `ip` from iproute2): ' +
      'running with the network.',
  );
  run(command, process.env);
}
console.log(`[homebody] running with the network cut (${prefix.join(' ')}): only loopback exists.`);
run([...prefix, 'sh', '-c', INSIDE, 'homebody', ...command], { ...process.env, HOMEBODY_NETWORK_CUT: '1' });
