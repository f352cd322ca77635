import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { seedWorkspace } from '../annotate/fixture'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

const BUSY =
  'factlab: The workspace is busy (another program, such as an import or a judge run, is writing to it): nothing was changed. Try again as soon as it is free.\n'

/** A workspace with labelling to do, and who wrote what in it. */
function workspace() {
  const dir = tmp()
  const s = seedWorkspace(dir)
  s.ctx.close()
  const file = join(dir, 'w.factlab')
  const history = () => {
    const db = new Database(file, { readonly: true })
    try {
      return db.prepare('SELECT verdict FROM label_history').all()
    } finally {
      db.close()
    }
  }
  return { dir, file, history }
}

/** Runs `fn` while another connection (another program) holds the workspace's write lock. */
async function whileLocked<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const other = new Database(file)
  other.exec('BEGIN IMMEDIATE')
  try {
    return await fn()
  } finally {
    other.exec('ROLLBACK')
    other.close()
  }
}

const target = ['--dataset', 'wiki', '--item', 'q0', '--variant', 'answer', '--unit', '1']

describe('a CLI command meeting a busy workspace', () => {
  it('exits 75 (try again later), says to try again, and saves nothing', async () => {
    const w = workspace()
    const label = ['label', '--workspace', w.file, ...target, '--annotator', 'ana', '--verdict', 'true']
    const r = await whileLocked(w.file, () => cli(label))
    expect(r).toEqual({ code: 75, out: '', err: BUSY })
    expect(w.history()).toEqual([])
    // The same command, once the other program is done, goes through.
    const again = await cli(label)
    expect(again.code, again.err).toBe(0)
    expect(w.history()).toEqual([{ verdict: 'true' }])
  })

  it('exits 75 for a file of labels too, none of them saved', async () => {
    const w = workspace()
    const lines = join(w.dir, 'labels.jsonl')
    writeFileSync(
      lines,
      `${JSON.stringify({ item: 'q0', variant: 'answer', unit: 1, verdict: 'true' })}\n${JSON.stringify({ item: 'q1', variant: 'answer', unit: 1, verdict: 'false' })}\n`,
    )
    const args = ['label', '--workspace', w.file, '--dataset', 'wiki', '--annotator', 'ana', '--file', lines]
    const r = await whileLocked(w.file, () => cli(args))
    expect(r).toEqual({ code: 75, out: '', err: BUSY })
    expect(w.history()).toEqual([])
  })

  it('still exits 1 on bad input, so a script can tell the two apart', async () => {
    const w = workspace()
    const r = await cli([
      'label',
      '--workspace',
      w.file,
      ...target,
      '--annotator',
      'ana',
      '--verdict',
      'maybe',
    ])
    expect(r.code).toBe(1)
    expect(r.err).not.toMatch(/try again/i)
  })
})
