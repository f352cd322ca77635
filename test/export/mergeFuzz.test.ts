import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { datasetContentHash, mergeBundle } from '../../src/main/export'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

/** Everything a merge may touch, to see that a refusal or a repeat leaves it as it was. */
const snapshot = (ws: Workspace) =>
  ws.db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM units) AS units, (SELECT COUNT(*) FROM targets) AS targets,
        (SELECT COUNT(*) FROM label_history) AS history, (SELECT COUNT(*) FROM annotators) AS annotators,
        (SELECT group_concat(target_id || ':' || COALESCE(verdict, '-') || ':' || updated_at, ' ')
           FROM (SELECT * FROM labels ORDER BY id)) AS labels`,
    )
    .get()

describe('merging bundles that name arbitrary unit versions', () => {
  it('either merges, and a second merge changes nothing, or refuses and changes nothing', async () => {
    const dir = tmp()
    const ws = Workspace.open(freshWorkspaceFile(join(dir, 'w.factlab')))
    const datasetId = loadDemoIfEmpty(ws).datasetId!
    const name = (ws.db.prepare('SELECT name FROM datasets WHERE id = ?').get(datasetId) as { name: string })
      .name
    const facts = (
      ws.db
        .prepare("SELECT u.text FROM units u JOIN items i ON i.id = u.item_id WHERE i.ext_id = 'demo-01'")
        .all() as { text: string }[]
    ).map((r) => r.text)
    const text = fc.oneof({ arbitrary: fc.constantFrom(...facts), weight: 4 }, fc.constantFrom('a', 'b'))
    const occurrence = fc.constantFrom(0, 0, 0, 1)
    const state = {
      verdict: fc.constantFrom('true', 'false', 'not_clear', null),
      evidence: fc.constant([]),
      note: fc.option(fc.constantFrom('n1', 'n2'), { nil: null }),
      seconds: fc.nat({ max: 5 }),
    }
    const at = fc.constantFrom('2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z')
    const label = fc.record({
      target: fc.record(
        {
          // Mostly the item whose facts the texts come from, so that many bundles fit.
          item: fc.constantFrom('demo-01', 'demo-01', 'demo-01', 'demo-01', 'nope'),
          variant: fc.constantFrom('answer', 'poor_answer'),
          kind: fc.constant('fact'),
          unit: text,
          occurrence,
          deleted: fc.constant(true),
          earlier: fc.record(
            {
              newer: fc.array(text, { maxLength: 3 }),
              latest: fc.record(
                { unit: text, occurrence, deleted: fc.constant(true) },
                { requiredKeys: ['unit', 'occurrence'] },
              ),
            },
            { requiredKeys: ['newer', 'latest'] },
          ),
        },
        { requiredKeys: ['item', 'variant', 'kind', 'unit', 'occurrence'] },
      ),
      ...state,
      createdAt: at,
      updatedAt: at,
      history: fc.array(fc.record({ ...state, action: fc.constant('set'), at }), { maxLength: 2 }),
    })
    const header = {
      format: 'factlab-bundle',
      version: 2,
      dataset: { name, contentHash: datasetContentHash(ws.db, datasetId) },
      annotator: { name: 'Fuzz' },
      exportedAt: '2026-01-03T00:00:00.000Z',
    }
    let merged = 0
    await fc.assert(
      fc.asyncProperty(fc.array(label, { minLength: 1, maxLength: 3 }), async (labels) => {
        const file = join(dir, 'fuzz.bundle.jsonl')
        writeFileSync(
          file,
          [{ ...header, labels: labels.length }, ...labels].map((l) => JSON.stringify(l)).join('\n'),
        )
        const before = snapshot(ws)
        let ok = true
        try {
          await mergeBundle(ws, file)
        } catch (error) {
          ok = false
          expect(String(error)).toMatch(/fuzz\.bundle\.jsonl:\d+: /)
          expect(snapshot(ws)).toEqual(before)
        }
        if (!ok) return
        merged++
        const after = snapshot(ws)
        const again = await mergeBundle(ws, file)
        expect(again).toMatchObject({ added: 0, updated: 0, recreated_versions: 0 })
        expect(snapshot(ws)).toEqual(after)
      }),
      { numRuns: 100 },
    )
    // The generator must reach the merging side too, not only refusals.
    expect(merged).toBeGreaterThan(0)
    ws.close()
  })
})
