import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { markPath, markServing, otherServerWarning } from '../../src/main/server/serverMark'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('a second server on one workspace', () => {
  it('is told that another live server has the workspace open, and leaves its mark alone', () => {
    const file = join(tmp(), 'w.factlab')
    // The test runner's parent stands in for the first server: a live process on this host.
    const first = { pid: process.ppid, host: hostname(), origin: 'http://127.0.0.1:5111' }
    writeFileSync(markPath(file), JSON.stringify(first))
    const second = markServing(file, 'http://127.0.0.1:5222')
    expect(second.other).toEqual(first)
    expect(otherServerWarning(second.other!)).toContain(
      `another FactLab server (process ${process.ppid}, http://127.0.0.1:5111) already has this workspace open`,
    )
    second.release()
    expect(JSON.parse(readFileSync(markPath(file), 'utf8'))).toEqual(first)
  })

  it('takes over the mark of a server that is gone, and removes its own on stop', () => {
    const file = join(tmp(), 'w.factlab')
    const gone = spawnSync(process.execPath, ['-e', '0']).pid
    writeFileSync(
      markPath(file),
      JSON.stringify({ pid: gone, host: hostname(), origin: 'http://127.0.0.1:5111' }),
    )
    const mine = markServing(file, 'http://127.0.0.1:5222')
    expect(mine.other).toBeNull()
    expect(JSON.parse(readFileSync(markPath(file), 'utf8')).pid).toBe(process.pid)
    mine.release()
    expect(existsSync(markPath(file))).toBe(false)
  })
})
