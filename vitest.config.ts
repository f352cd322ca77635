import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'out/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A poll waits for the UI to reach a state and ends as soon as it does. vitest's default of one
    // second is less than a view loaded on first use can take on a machine running the suite twice.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    setupFiles: ['test/setup/fastCheck.ts'],
    // The JSON report lets .ci/run print a one-line summary that CI can read.
    reporters: ['default', 'json'],
    outputFile: { json: 'test/artifacts/vitest-report.json' },
  },
})
