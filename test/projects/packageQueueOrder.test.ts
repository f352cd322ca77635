import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nextTarget } from '../../src/main/annotate/view'
import { Workspace } from '../../src/main/app/workspace'
import { exportPackage } from '../../src/main/projects/packageExport'
import { openPackage } from '../../src/main/projects/packageOpen'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

/** Labels whatever the queue serves; returns "fact|variant" in the order it came. */
function servedOrder(ws: Workspace, datasetId: number, name: string): string[] {
  const me = ensureAnnotator(ws.db, name).id
  const served: string[] = []
  for (;;) {
    const { targetId } = nextTarget(ws.db, { datasetId, annotatorId: me })
    if (targetId === null) return served
    const r = ws.db
      .prepare(
        `SELECT u.text AS u, c.variant AS v FROM targets t JOIN units u ON u.id = t.unit_id
         JOIN candidates c ON c.id = t.candidate_id WHERE t.id = ?`,
      )
      .get(targetId) as { u: string; v: string }
    served.push(`${r.u}|${r.v}`)
    ws.labels.save({ targetId, annotatorId: me, verdict: 'true', seconds: 2 })
  }
}

describe('the queue on a laptop', () => {
  it("serves each fact's answers in the order of the Annotate view's tabs, not by variant name", () => {
    const dirs = { lead: tmp(), laptop: tmp() }
    const lead = Workspace.open(freshWorkspaceFile(join(dirs.lead, 'w.factlab')))
    const ds = createDataset(lead.db, { name: 'wiki', labelSchema: FAAF_SCHEMA })
    const item = lead.content.insertItem(ds.id, { extId: 'q0', question: 'Q?', reference: 'Ref.' }, 0)
    // Tabs follow the answers' order in the item; by name, poor_answer would come second.
    const tabs = ['answer', 'ungrounded_answer', 'poor_answer']
    for (const variant of tabs) lead.content.insertCandidate(item, { variant, text: `Text of ${variant}.` })
    for (const f of ['Fact one', 'Fact two']) lead.content.insertUnit(item, { kind: 'fact', text: f })
    ensureAnnotator(lead.db, 'ann0')
    const pkg = join(dirs.lead, 'ann0.jsonl')
    exportPackage(lead, { datasetId: ds.id, annotator: 'ann0', out: pkg })
    lead.close()

    const laptop = Workspace.open(freshWorkspaceFile(join(dirs.laptop, 'w.factlab')))
    try {
      const opened = openPackage(laptop, pkg)
      const shown = laptop.db
        .prepare(
          'SELECT variant FROM candidates WHERE item_id = (SELECT id FROM items WHERE dataset_id = ?) ORDER BY id',
        )
        .pluck()
        .all(opened.datasetId)
      expect(shown).toEqual(tabs)
      expect(servedOrder(laptop, opened.datasetId, 'ann0')).toEqual(
        ['Fact one', 'Fact two'].flatMap((f) => tabs.map((v) => `${f}|${v}`)),
      )
    } finally {
      laptop.close()
    }
  })
})
