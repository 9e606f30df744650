// The dependency rule of docs/architecture.md, checked by `npm run lint` (`npx depcruise src web/src tracker`).
//
// The server is layered; a module imports from its own layer or from those below it, never above:
//   entry points   src/main.ts, src/serve.ts, src/app.ts, src/queryEngine.ts, src/backgroundJobs.ts, src/cli/
//   HTTP and MCP   src/api/, src/web/ (the web app's server side), src/mcp/
//   domain         src/ingest/, src/query/, src/management/, src/imports/, src/export/, src/webhooks/,
//                  src/rollups/, src/state/, src/reports/
//   stores         src/stores/, src/mail/ (what holds or sends data, knowing nothing of its callers)
//   foundation     src/contracts/, src/time/, src/accounts/, src/config/, src/clock.ts, src/errors.ts,
//                  src/classifications.ts
// and no import cycle anywhere, type-only imports included. The browser's code takes from the server
// only src/contracts/ (the web app, through its @contracts/* alias; the tracker, nothing).

const ENTRY = '^src/(main|serve|app|queryEngine|backgroundJobs)[.]ts$|^src/cli/';
const HTTP = '^src/(api|web|mcp)/';
const DOMAIN = '^src/(ingest|query|management|imports|export|webhooks|rollups|state|reports)/';
const STORES = '^src/(stores|mail)/';
const FOUNDATION = '^src/(contracts|time|accounts|config)/|^src/(clock|errors|classifications)[.]ts$';

module.exports = {
  forbidden: [
    {
      name: 'every-server-module-has-a-layer',
      severity: 'error',
      comment: 'A server module outside every layer would escape the rule: name its layer in this file (and docs/architecture.md).',
      from: { path: '^src/', pathNot: [ENTRY, HTTP, DOMAIN, STORES, FOUNDATION] },
      to: {},
    },
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Modules that import each other (type-only imports count) cannot be read, tested or moved one at a time.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'entry-points-are-imported-by-none',
      severity: 'error',
      comment: 'Only an entry point wires the program together; nothing below it may reach back up.',
      from: { pathNot: [ENTRY] },
      to: { path: [ENTRY] },
    },
    {
      name: 'domain-imports-no-http',
      severity: 'error',
      comment: 'Domain modules say what happened in their own words; HTTP, the web server and MCP map it to answers.',
      from: { path: [DOMAIN, STORES] },
      to: { path: [HTTP] },
    },
    {
      name: 'stores-import-no-domain',
      severity: 'error',
      comment: 'Stores hold data for the domain and know nothing of it: they take their types from src/stores/ or the foundation.',
      from: { path: [STORES] },
      to: { path: [DOMAIN] },
    },
    {
      name: 'foundation-imports-only-foundation',
      severity: 'error',
      comment: 'Contracts, time, accounts, configuration, clock and errors are the ground floor: everything may use them.',
      from: { path: [FOUNDATION] },
      to: { path: ['^src/'], pathNot: [FOUNDATION] },
    },
    {
      name: 'ingestion-imports-no-shared-state',
      severity: 'error',
      comment:
        "src/state/ implements ingestion's ports over Redis (src/ingest/sharedState.ts); the composition root hands it in. Ingestion importing it back would tie the pipeline to Redis and make the two folders one.",
      from: { path: '^src/ingest/' },
      to: { path: '^src/state/' },
    },
    {
      name: 'shared-state-reaches-ingestion-through-its-port',
      severity: 'error',
      comment:
        'src/state/ takes from ingestion only src/ingest/sharedState.ts: the ports it implements and the visit rules its scripts mirror, named in one place, so a change there is seen to concern Redis too.',
      from: { path: '^src/state/' },
      to: { path: '^src/ingest/', pathNot: '^src/ingest/sharedState[.]ts$' },
    },
    {
      name: 'ingestion-knows-no-clickhouse-client',
      severity: 'error',
      comment:
        "Collection writes and reads its rows through src/stores/clickhouse/ingestionStore.ts: how an insert is sent (format, columns, deduplication token) is the store's to know, once, not the write buffer's and the journal replay's each.",
      from: { path: '^src/ingest/' },
      to: { path: '^node_modules/(@clickhouse/|chdb/)' },
    },
    {
      name: 'metric-registry-sits-below-the-stages',
      severity: 'error',
      comment:
        'Every stage of the engine reads the metric registry (and the filter-tree facts it shares with the compiler): it imports none of them, so query/sql may import query/metrics but never the other way.',
      from: { path: '^src/query/(metrics|filterTrees|columnConditions)[.]ts$' },
      to: { path: '^src/query/(sql|plan|run|request|journeys)/' },
    },
    {
      name: 'contracts-import-only-zod',
      severity: 'error',
      comment:
        'The contracts are read by the browser too: schemas, their types and the plain facts both sides hold alike (roles, scopes, webhook event types, time zones…), built from zod and each other, with no Node.js or server code.',
      from: { path: '^src/contracts/' },
      to: { pathNot: ['^src/contracts/', '^node_modules/zod/'] },
    },
    {
      name: 'web-app-imports-only-the-contracts',
      severity: 'error',
      comment:
        'The web app (web/src) is built for the browser: from the server it takes only src/contracts, through its @contracts/* alias. A fact both need belongs there, not in a server folder reached by a relative path.',
      from: { path: '^web/' },
      to: { path: '^(src|tracker|test|bench|scripts)/', pathNot: '^src/contracts/' },
    },
    {
      name: 'tracker-stands-alone',
      severity: 'error',
      comment: 'The tracker is a script for every tracked page (tracker/, built by scripts/build-tracker.mjs): it imports nothing of ours outside itself.',
      from: { path: '^tracker/' },
      to: { path: '^(src|web|test|bench|scripts)/' },
    },
    {
      name: 'server-imports-no-browser-or-test-code',
      severity: 'error',
      comment: 'The server never imports the web app, the tracker, tests or benchmarks.',
      from: { path: '^src/' },
      to: { path: '^(web|tracker|test|bench|scripts)/' },
    },
    {
      name: 'no-unresolvable-import',
      severity: 'error',
      comment: 'An import the checker cannot resolve is an import whose layer it cannot check.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports are read as imports: a cycle through types is a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Packages are not followed, but their entry files stay in the graph so that a rule can name
    // one (zod for the contracts, the ClickHouse client for ingestion).
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
