/*
 * The directions of DESIGN.md ("Layout and the direction of imports"), checked on every import after it is resolved
 * to a file, so they hold for files at any depth and however the specifier is spelled. Type-only imports count: a
 * type is as much a dependency as a value. eslint.config.js keeps the package bans (which folder may import
 * better-sqlite3, node-llama-cpp, electron, ws, child_process, Node built-ins); src-main/testing/importRules.test.ts
 * proves both sets of rules fire.
 */

/**
 * The folders of src-main that a src-main folder must not import: lower layers never reach up. The layering is
 * `ipc`, `server`, `cli`, `app` → `host` → `services` → `agent`, `history`, `eval`, `llm`, `tools`, `permissions`,
 * `store`, `privacy`, `util`, with the further directions among the lower folders listed here.
 */
const TOP = ['server', 'cli', 'ipc', 'app', 'preload'];
const ABOVE_SERVICES = ['host', ...TOP];
const ABOVE_DOMAIN = ['services', ...ABOVE_SERVICES];
const HIGHER = {
  host: TOP,
  services: ABOVE_SERVICES,
  agent: ABOVE_DOMAIN,
  llm: [...ABOVE_DOMAIN, 'agent', 'store'],
  store: [...ABOVE_DOMAIN, 'agent', 'llm'],
  history: [...ABOVE_DOMAIN, 'agent', 'llm', 'tools'],
  util: [...ABOVE_DOMAIN, 'agent', 'llm', 'store'],
  permissions: [...ABOVE_DOMAIN, 'agent', 'llm', 'store', 'tools'],
  tools: [...ABOVE_DOMAIN, 'agent', 'llm', 'store', 'permissions'],
  // Evaluation drives a model and the tools on fixtures; runs are kept by the Host, so it never reaches the store.
  eval: [...ABOVE_DOMAIN, 'agent', 'store'],
  // The egress guard is the lowest layer: everything that connects out goes through it.
  privacy: [...ABOVE_DOMAIN, 'agent', 'llm', 'store', 'permissions', 'tools', 'history', 'util'],
};

/**
 * An integration test (`*.int.test.ts`) proves a whole path, so it may assemble the layers above its folder (a tool's
 * test that goes through the Host); unit tests stay inside their layer like the code they test.
 */
const INTEGRATION_TEST = '\\.int\\.test\\.ts$';

const folderRule = ([folder, higher]) => ({
  name: `layer-${folder}`,
  severity: 'error',
  comment: `src-main/${folder} is below ${higher.join(', ')}: it must not import them.`,
  from: { path: `^src-main/${folder}/`, pathNot: INTEGRATION_TEST },
  to: { path: `^src-main/(${higher.join('|')})/` },
});

/** Tests, and the helpers in a testing/ folder, are the only code that may import a testing/ folder. */
const TEST_CODE = ['\\.test\\.tsx?$', '^src-(main|renderer)/testing/'];

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'shared-imports-no-other-root',
      severity: 'error',
      comment: 'src-shared imports nothing from src-main or src-renderer.',
      from: { path: '^src-shared/' },
      to: { path: '^src-(main|renderer)/' },
    },
    {
      name: 'renderer-not-to-main',
      severity: 'error',
      comment: 'The renderer talks to the Host only through src-shared/contract.',
      from: { path: '^src-renderer/' },
      to: { path: '^src-main/' },
    },
    {
      name: 'main-not-to-renderer',
      severity: 'error',
      comment: 'src-main never imports the renderer.',
      from: { path: '^src-main/' },
      to: { path: '^src-renderer/' },
    },
    ...Object.entries(HIGHER).map(folderRule),
    {
      name: 'no-testing-in-production',
      severity: 'error',
      comment: 'testing/ holds test helpers: only tests and other helpers import it, so none of it ships.',
      from: { path: '^src-(main|renderer)/', pathNot: TEST_CODE },
      to: { path: '^src-(main|renderer)/testing/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules import each other in one direction only; move what both need into a module of its own.',
      from: { path: '^src-(main|shared|renderer)/' },
      to: { circular: true },
    },
    {
      name: 'resolvable',
      severity: 'error',
      comment:
        'A relative import must name a file that exists (a .js specifier names its .ts file): ' +
        'the rules above cannot place one that does not.',
      from: {},
      to: { couldNotResolve: true, path: '^\\.' },
    },
  ],
  options: {
    // Type-only imports are dependencies too: a type cycle is a cycle, and a type from a higher layer is a reach up.
    tsPreCompilationDeps: true,
    moduleSystems: ['es6', 'cjs'],
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(build|dist|node_modules)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    skipAnalysisNotInRules: true,
    progress: { type: 'none' },
  },
};
