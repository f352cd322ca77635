import { accessSync, constants, statfsSync } from 'node:fs'
import { defineConfig } from 'vitest/config'

/**
 * Where the suite's scratch files go when nobody chose (TMPDIR unset): shared memory when it has
 * room for the largest (an 80 MB import and its upload). Every test workspace is a SQLite file
 * with synchronous = FULL, so each commit waits for an fsync; on this machine's disk a new
 * workspace alone waited half a second. In memory an fsync returns at once, and no test can tell
 * the difference: none cuts the power, and a process killed mid-write leaves the same file in
 * memory as on a disk. See docs/testing.md.
 */
function memoryScratchDir(dir = '/dev/shm', room = 2 * 1024 ** 3): string | null {
  if (process.env.TMPDIR) return null
  try {
    accessSync(dir, constants.W_OK)
    const fs = statfsSync(dir)
    return fs.bavail * fs.bsize >= room ? dir : null
  } catch {
    return null
  }
}

// Set before vitest starts its workers: they, and every process a test starts, inherit it.
const scratch = memoryScratchDir()
if (scratch) process.env.TMPDIR = scratch

const TESTS = ['test/**/*.test.ts', 'src/**/*.test.ts']
const NEVER = ['**/node_modules/**', 'out/**']

/**
 * Files that replace a module with `vi.mock` (electron, node:fs, two export steps). A mock holds
 * for the whole module graph of the process it runs in: in a shared process the modules an earlier
 * file loaded would keep the real one, and the modules this file loads would keep the fake for
 * every file after it. These run in a process each, as every file once did.
 */
const OWN_PROCESS = [
  'test/shell/ipc.test.ts',
  'test/shell/keyStore.test.ts',
  'test/shell/preload.test.ts',
  'test/shell/window.test.ts',
  'test/export/oneSnapshot.test.ts',
  'test/export/exportLeftovers.test.ts',
]

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A poll waits for the UI to reach a state and ends as soon as it does, so its limit only has to
    // outlast the slowest step when nothing is wrong: at a load average of 30 on 2 cores (the suite
    // run twice at once) a page's first load took longer than 12 s. The same as the browser tests'
    // step limit (test/e2e/limits.ts).
    expect: { poll: { timeout: 60_000 } },
    pool: 'forks',
    setupFiles: ['test/setup/fastCheck.ts'],
    // The empty and the demo workspace tests copy, made once for the whole run (not once per file).
    globalSetup: ['test/setup/templates.ts'],
    // The JSON report lets .ci/run print a one-line summary that CI can read.
    reporters: ['default', 'json'],
    outputFile: { json: 'test/artifacts/vitest-report.json' },
    // Each project names its own files. `extends: true` concatenates lists with the root's, so a
    // root `include` would put every file in both projects and run it twice.
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: TESTS,
          exclude: [...NEVER, ...OWN_PROCESS],
          // One process runs file after file, its imports loaded once: a new process and a fresh
          // import of the app's modules cost each file about a second. vitest still restores
          // spies and its config between files; see docs/testing.md for what else a file must
          // leave as it found it.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, exclude: NEVER, isolate: true } },
    ],
  },
})
