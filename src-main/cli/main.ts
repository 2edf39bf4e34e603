import { HomebodyError } from '../../src-shared/contract/index.js';
import { UsageError } from './args.js';
import { APPROVALS_USAGE, approvalsCommand } from './approvalsCommand.js';
import { AUDIT_USAGE, auditCommand } from './auditCommand.js';
import { DOCTOR_USAGE, doctorCommand } from './doctorCommand.js';
import { EVAL_USAGE, evalCommand } from './evalCommand.js';
import { HISTORY_USAGE, historyCommand } from './historyCommand.js';
import { MAKE_MODEL_USAGE, makeModelCommand } from './makeModelCommand.js';
import { MODELS_USAGE, modelsCommand } from './modelsCommand.js';
import { NODES_USAGE, nodesCommand } from './nodesCommand.js';
import { POLICY_USAGE, policyCommand } from './policyCommand.js';
import { PRIVACY_USAGE, privacyCommand } from './privacyCommand.js';
import { RUN_USAGE, runCommand } from './runCommand.js';
import { SERVE_USAGE, serveCommand } from './serveCommand.js';
import { TOOLS_USAGE, toolsCommand } from './toolsCommand.js';

const USAGE = `Homebody: a private assistant that runs on your computer.

Usage:
  ${RUN_USAGE.replaceAll('\n', '\n  ')}

  ${SERVE_USAGE.replaceAll('\n', '\n  ')}

  ${MAKE_MODEL_USAGE.replaceAll('\n', '\n  ')}

  ${TOOLS_USAGE.replaceAll('\n', '\n  ')}

  ${APPROVALS_USAGE.replaceAll('\n', '\n  ')}

  ${POLICY_USAGE.replaceAll('\n', '\n  ')}

  ${AUDIT_USAGE.replaceAll('\n', '\n  ')}

  ${PRIVACY_USAGE.replaceAll('\n', '\n  ')}

  ${HISTORY_USAGE.replaceAll('\n', '\n  ')}

  ${DOCTOR_USAGE.replaceAll('\n', '\n  ')}

  ${MODELS_USAGE.replaceAll('\n', '\n  ')}

  ${NODES_USAGE.replaceAll('\n', '\n  ')}

  ${EVAL_USAGE.replaceAll('\n', '\n  ')}

--data-dir (or HOMEBODY_DATA_DIR) sets the data folder for every command. One process uses a data folder at a
time: while the app or "homebody serve" runs on it, other commands on it are refused (exit 1, naming it); two commands
started at once take turns.`;

const COMMANDS: Record<string, (args: string[]) => number | Promise<number>> = {
  run: runCommand,
  serve: serveCommand,
  'make-model': makeModelCommand,
  tools: toolsCommand,
  approvals: approvalsCommand,
  policy: policyCommand,
  audit: auditCommand,
  privacy: privacyCommand,
  history: historyCommand,
  doctor: doctorCommand,
  models: modelsCommand,
  nodes: nodesCommand,
  eval: evalCommand,
};

/** The headless Homebody: the same Host as the app, without a window. */
async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const run = COMMANDS[command];
  if (!run) {
    console.error(`homebody: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  try {
    return await run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`homebody ${command}: ${error.message}\nRun "homebody help" for usage.`);
      return 2;
    }
    if (error instanceof HomebodyError) {
      console.error(`homebody: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
