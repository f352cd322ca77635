import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildItemLevel } from '../../src/main/metrics/items/build'
import { loadItemInputs } from '../../src/main/metrics/items/load'
import type { ItemLevelInput } from '../../src/main/metrics/items/seriesScores'
import { datasetSnapshot } from '../../src/main/metrics/snapshot'
import { openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { buildItemLevel as oracleBuild } from './oracle/build'

/**
 * The item-level build numbers documents and systems once per dataset and correlates columns;
 * the oracle (the code before, row by row) groups each line's rows itself. Items listed in an
 * order other than their ids' (moved items) and variants out of name order must give the same
 * figures to the last digit.
 */
const dir = tmpDirs()

describe('item-level figures with items out of id order', () => {
  it('are the oracle’s, whatever order the responses come in', () => {
    const db = openWorkspace(`${dir()}/w.factlab`, { skipQuickCheck: true })
    const ds = createDataset(db, { name: 'moved', labelSchema: FAAF_SCHEMA })
    const items = 9
    const variants = ['zeta', 'alpha', 'mid']
    db.transaction(() => {
      const content = new ContentWriter(db)
      for (let i = 0; i < items; i++) {
        // Later items listed first: positions run against the ids.
        const item = content.insertItem(ds.id, { extId: `q${i}`, question: 'q', reference: 'r' }, items - i)
        for (const v of variants) content.insertCandidate(item, { variant: v, text: `${v} ${i}` })
        for (let u = 0; u < 4; u++) content.insertUnit(item, { kind: 'fact', text: `u${u}` })
      }
      const targets = db
        .prepare('SELECT id FROM targets WHERE dataset_id = ? ORDER BY id')
        .pluck()
        .all(ds.id) as number[]
      const ins = db.prepare(
        "INSERT INTO labels (target_id, annotator_id, verdict, created_at, updated_at) VALUES (?, ?, ?, '2026-01-01', '2026-01-01')",
      )
      const people = [ensureAnnotator(db, 'ana').id, ensureAnnotator(db, 'bob').id]
      targets.forEach((t, i) => {
        ins.run(t, people[0], (i * 5) % 7 < 3 ? 'false' : 'true')
        if (i % 4 !== 0) ins.run(t, people[1], (i * 3) % 5 < 2 ? 'false' : 'true')
      })
      const insRun = db.prepare(
        `INSERT INTO runs (kind, dataset_id, provider, model, method, status, created_at)
         VALUES ('imported', ?, 'imported', ?, 'faaf-tf', 'done', '2026-01-01')`,
      )
      const insVerdict = db.prepare(
        'INSERT INTO verdicts (run_id, target_id, status, verdict) VALUES (?, ?, ?, ?)',
      )
      for (let r = 0; r < 3; r++) {
        const runId = Number(insRun.run(ds.id, `m${r}`).lastInsertRowid)
        targets.forEach((t, i) => {
          if ((i + r) % 11 === 0) return
          insVerdict.run(runId, t, 'ok', (i * (r + 2)) % 5 < 2 ? 'false' : 'true')
        })
      }
    })()
    const s = datasetSnapshot(db, ds.id)
    const inputs = loadItemInputs(
      db,
      ds.id,
      s.t,
      s.runs.map((r) => r.id),
    )
    // As listed, items come against their ids.
    expect(inputs.responses[0]!.itemId).toBeGreaterThan(inputs.responses.at(-1)!.itemId)
    fc.assert(
      fc.property(
        fc.shuffledSubarray(inputs.responses, { minLength: inputs.responses.length }),
        fc.integer({ min: 0, max: 1000 }),
        (responses, seed) => {
          const input: ItemLevelInput = {
            t: s.t,
            coder: s.coder,
            runs: s.runs,
            columns: s.columns,
            inputs: { ...inputs, responses },
            names: new Map(),
            alpha: 0,
            beta: 0,
            boot: { seed, replicates: 40 },
          }
          const got = buildItemLevel(input)
          expect(got.correlations.length).toBeGreaterThan(0)
          expect(got).toStrictEqual(oracleBuild(input))
        },
      ),
      { numRuns: 15 },
    )
    db.close()
  })
})
