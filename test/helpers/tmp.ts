import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'

/** A fresh folder per test, removed afterwards. */
export function tmpDirs(): () => string {
  const made: string[] = []
  afterEach(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true })
  })
  return () => {
    const d = mkdtempSync(join(tmpdir(), 'factlab-test-'))
    made.push(d)
    return d
  }
}
