// Import rules for FactLab, checked by `npm run depcheck` (part of `npm test`; see
// scripts/lib/depcheck.js for why the check runs on a plain-JavaScript copy of src/). Paths are
// relative to the project root and match either extension of a file, since the copy is .js.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No file imports one that imports it back, type imports included: a circle makes a reader climb back and forth and ties the modules into one.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'services-not-transport',
      severity: 'error',
      comment:
        'Services (src/main/* but rpc, server, cli, shell and index) are what the transports call; they never import a transport back. A refusal is an app/errors ServiceError.',
      from: { path: '^src/main/', pathNot: '^src/main/(rpc|server|cli|shell)/|^src/main/index\\.[jt]s$' },
      to: { path: '^src/main/(rpc|server|cli|shell)/' },
    },
    {
      name: 'electron-only-in-shell',
      severity: 'error',
      comment:
        'Only the Electron shell (src/main/shell, src/main/index) and the preload talk to Electron; services run the same under the CLI and browser mode.',
      from: { pathNot: '^src/main/shell/|^src/main/index\\.[jt]s$|^src/preload/' },
      to: { path: '^electron$|(^|/)node_modules/electron/' },
    },
    {
      name: 'stats-are-pure',
      severity: 'error',
      comment:
        'src/main/metrics/stats is pure statistics: no I/O (node:*), no store, no SQLite, nothing else of main — testable on plain numbers.',
      from: { path: '^src/main/metrics/stats/' },
      to: {
        dependencyTypes: ['core'],
      },
    },
    {
      name: 'stats-import-no-store',
      severity: 'error',
      comment: 'See stats-are-pure.',
      from: { path: '^src/main/metrics/stats/' },
      to: { path: '^src/main/(?!metrics/stats/)|(^|/)node_modules/better-sqlite3/|^better-sqlite3$' },
    },
    {
      name: 'renderer-only-shared',
      severity: 'error',
      comment:
        'The renderer reaches main only through the contract in src/shared; it imports nothing else of the project.',
      from: { path: '^src/renderer/' },
      to: { path: '^src/(?!renderer/|shared/)' },
    },
    {
      name: 'renderer-no-node',
      severity: 'error',
      comment: 'The renderer runs in a sandboxed page: no Node built-ins.',
      from: { path: '^src/renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'shared-is-pure',
      severity: 'error',
      comment:
        'src/shared is used by main and renderer alike: no Node built-ins, no Electron, no main or renderer code.',
      from: { path: '^src/shared/' },
      to: { path: '^src/(main|renderer|preload)/' },
    },
    {
      name: 'shared-no-node',
      severity: 'error',
      comment: 'See shared-is-pure.',
      from: { path: '^src/shared/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
  },
}
