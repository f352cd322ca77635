import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

/** The start screen's "who are you": a name typed as people read it finds the person who labels. */
describe('choosing who labels', () => {
  it('finds the person whose name differs only in case or Unicode form', () => {
    const db = openWorkspace(freshWorkspaceFile(join(tmp(), 'w.factlab')))
    const ana = ensureAnnotator(db, 'Ana')
    const zoe = ensureAnnotator(db, 'Zo\u00eb')
    expect(ensureAnnotator(db, ' ana ').id).toBe(ana.id)
    expect(ensureAnnotator(db, 'ZOE\u0308').id).toBe(zoe.id)
    expect(
      (db.prepare('SELECT name FROM annotators ORDER BY id').all() as { name: string }[]).map((r) => r.name),
    ).toEqual(['Ana', 'Zo\u00eb'])
    db.close()
  })

  it('keeps an exact name first where a workspace from before holds both spellings', () => {
    const db = openWorkspace(freshWorkspaceFile(join(tmp(), 'w.factlab')))
    const upper = ensureAnnotator(db, 'Ana')
    db.prepare("INSERT INTO annotators (name, created_at) VALUES ('ana', '2026-01-01')").run()
    const lower = ensureAnnotator(db, 'ana')
    expect(lower.id).not.toBe(upper.id)
    expect(lower.name).toBe('ana')
    db.close()
  })
})
