import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { needsBuild, OUTPUTS } from '../../scripts/lib/build.js'
import { electronBinary, MISSING_ELECTRON } from '../../scripts/lib/electronBinary.js'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

function touch(file: string, time: number): void {
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, 'x')
  utimesSync(file, time, time)
}

describe('npm start: finding Electron', () => {
  it('reports no binary when the download was skipped, and finds it once installed', () => {
    const dir = tmp()
    expect(electronBinary(dir, {})).toBeNull()
    writeFileSync(join(dir, 'path.txt'), 'electron')
    expect(electronBinary(dir, {})).toBeNull()
    touch(join(dir, 'dist', 'electron'), 1000)
    expect(electronBinary(dir, {})).toBe(join(dir, 'dist', 'electron'))
    expect(electronBinary(dir, { ELECTRON_OVERRIDE_DIST_PATH: join(dir, 'elsewhere') })).toBeNull()
  })

  it('explains the way out in one paragraph', () => {
    expect(MISSING_ELECTRON).not.toContain('\n')
    expect(MISSING_ELECTRON).toContain('npm run serve')
    expect(MISSING_ELECTRON).toMatch(/network/)
  })
})

describe('npm start / serve: building only when needed', () => {
  it('builds when an output is missing or a source is newer than the outputs', () => {
    const root = tmp()
    // Folders count too (a deleted file changes its folder), and they were made just now.
    const now = Date.now() / 1000
    touch(join(root, 'src', 'main', 'index.ts'), now - 100)
    expect(needsBuild(root)).toBe(true)
    for (const out of OUTPUTS) touch(join(root, out), now + 100)
    expect(needsBuild(root)).toBe(false)
    touch(join(root, 'src', 'renderer', 'src', 'App.tsx'), now + 200)
    expect(needsBuild(root)).toBe(true)
  })
})
