import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { importFile } from '../../src/main/import'
import { resolveControlLines } from '../../src/main/projects/controlLines'
import { setControls } from '../../src/main/projects/controls'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
// Ten WikiEvalFacts-style rows with an "id" column (q1…q10), as the QA walk imported them.
const WITH_IDS = join(__dirname, '../fixtures/import/wikievalfacts-ids.jsonl')

describe('the WikiEvalFacts preset and an id column', () => {
  it("keeps the file's ids, so a control line can name item q1", async () => {
    const ws = Workspace.open(freshWorkspaceFile(join(tmp(), 'lead.factlab')))
    const r = await importFile(ws, { file: WITH_IDS })
    const ids = ws.db
      .prepare('SELECT ext_id FROM items WHERE dataset_id = ? ORDER BY position')
      .pluck()
      .all(r.datasetId) as string[]
    expect(ids).toEqual(Array.from({ length: 10 }, (_, i) => `q${i + 1}`))
    const lines = resolveControlLines(ws.db, r.datasetId, 'q1,answer,1,true')
    expect(lines.problems).toEqual([])
    expect(setControls(ws.db, r.datasetId, { fromGold: [], answers: lines.answers }, 'now').controls).toBe(1)
    ws.close()
  })
})
