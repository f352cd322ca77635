import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'

/** `factlab <args> | true`: the reader has gone before the first write. */
function pipedToNobody(args: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve, reject) => {
    // `factlab` as installed: the build while it is current, else the source through tsx.
    const child = spawn(process.execPath, ['bin/factlab.js', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.destroy()
    let err = ''
    child.stderr.on('data', (d) => {
      err += String(d)
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, err }))
  })
}

describe('output piped to a reader that stops early (| head -1)', () => {
  it('ends quietly with the exit code of the command, no EPIPE stack trace', async () => {
    const r = await pipedToNobody(['calls', '--json'])
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
  }, 60_000)
})
