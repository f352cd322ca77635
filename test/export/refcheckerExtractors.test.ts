import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeRefcheckerRelease } from '../../src/main/export/refcheckerRelease'
import { importFile } from '../../src/main/import'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { refcheckerTables } from '../../src/main/reports/refchecker'
import { responsesWords } from '../../src/shared/refcheckerExtractors'
import { SETTING } from '../helpers/refcheckerRelease'
import { fixture, rows, workspaces } from '../import/helpers'

const { ws: newWs, dir } = workspaces()

type Released = Record<string, unknown>[]

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Released

/** The exported rows cut to the released file's fields (the export adds question and reference). */
function asReleased(exported: Released, released: Released): Released {
  return exported.map((row, i) => {
    const keys = Object.keys(released[i] ?? {})
    return Object.fromEntries(
      Object.entries(row).filter(([k]) => keys.includes(k) || k.endsWith('_response_kg')),
    )
  })
}

describe('RefChecker files go out as they were released, each extractor under its own key', () => {
  for (const secondFile of [undefined, fixture('refchecker_context.json')])
    it(`two extractors, an empty list and the release's spelling come back (${secondFile ? 'with' : 'without'} the second file)`, async () => {
      const ws = newWs()
      const r = await importFile(ws, {
        file: fixture('refchecker.json'),
        ...(secondFile ? { secondFile } : {}),
      })
      const out = join(dir(), 'out')
      const { files } = writeRefcheckerRelease(ws.db, r.datasetId, out)
      expect(files).toHaveLength(1)
      const released = read(fixture('refchecker.json'))
      const exported = read(files[0]!)
      expect(asReleased(exported, released)).toEqual(released)
      // Fields in the released order: id, response, then each extractor's list as the file had them.
      expect(Object.keys(exported[0]!).filter((k) => k.endsWith('_response_kg'))).toEqual([
        'claude2_response_kg',
        'gpt4_response_kg',
      ])
    })

  it('the release folder (one extractor, an abstention with no list at all) comes back file for file', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: SETTING, preset: 'refchecker' })
    const out = join(dir(), 'out')
    writeRefcheckerRelease(ws.db, r.datasetId, out)
    const folder = join(out, 'zero_context')
    const names = readdirSync(SETTING).sort()
    expect(readdirSync(folder).sort()).toEqual(names)
    for (const name of names) expect(read(join(folder, name)), name).toEqual(read(join(SETTING, name)))
  })

  it('a workspace imported before extractors were kept apart writes each list under its own key', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: fixture('refchecker.json') })
    // As the import used to leave it: both lists' units in one candidate `response`, no metadata.
    const item1 = rows<{ id: number }>(ws, "SELECT id FROM items WHERE ext_id = 'rc-1'")[0]!.id
    const ids = rows<{ id: number; variant: string }>(
      ws,
      'SELECT id, variant FROM candidates WHERE item_id = ? ORDER BY id',
      item1,
    )
    expect(ids.map((c) => c.variant)).toEqual(['claude2 triplets', 'gpt4 triplets'])
    const [a, b] = ids
    ws.db.pragma('foreign_keys = OFF')
    ws.db.prepare('UPDATE units SET candidate_id = ? WHERE candidate_id = ?').run(a!.id, b!.id)
    ws.db.prepare('UPDATE targets SET candidate_id = ? WHERE candidate_id = ?').run(a!.id, b!.id)
    ws.db.prepare('DELETE FROM candidates WHERE id = ?').run(b!.id)
    ws.db.prepare("UPDATE candidates SET variant = 'response', metadata = '{}' WHERE id = ?").run(a!.id)
    ws.db.pragma('foreign_keys = ON')
    const out = join(dir(), 'out')
    const { files } = writeRefcheckerRelease(ws.db, r.datasetId, out)
    const rc1 = read(files.find((f) => f.endsWith('_response_answers.json'))!)[0]!
    expect(rc1.claude2_response_kg).toHaveLength(2)
    expect(rc1.gpt4_response_kg).toEqual([
      { triplet: ['Dunmore lighthouse', 'construction year', '1874'], human_label: 'Entailment' },
    ])
  })
})

describe("RefChecker's figures are each extractor's own", () => {
  it('per-response counts, hallucination and strict labels split by extractor, not pooled', async () => {
    const ws = newWs()
    const r = await importFile(ws, {
      file: fixture('refchecker.json'),
      secondFile: fixture('refchecker_context.json'),
    })
    const human = computeDatasetMetrics(ws.db, r.datasetId).refcheckerEval!.human
    const claude = human.byVariant['claude2 triplets']!
    const gpt4 = human.byVariant['gpt4 triplets']!
    // claude2: 2 + 2 triplets, rc-1 holds a contradiction; gpt4: rc-1's one entailed triplet, rc-2 none.
    expect([claude.responses, claude.abstentions, claude.triplets]).toEqual([2, 0, 4])
    expect([gpt4.responses, gpt4.abstentions, gpt4.triplets]).toEqual([2, 1, 1])
    expect(claude.hallucinationRate).toBe(0.5)
    expect(gpt4.hallucinationRate).toBe(0)
    expect(gpt4.macro).toMatchObject({ entailment: 1, neutral: 0, contradiction: 0 })
  })
})

describe('an overall RefChecker row over several extractors', () => {
  it('counts candidates with the extractors named, not responses (2 items read by 2 extractors)', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: fixture('refchecker.json') })
    const m = computeDatasetMetrics(ws.db, r.datasetId)
    expect(m.refcheckerEval!.human.responses).toBe(4)
    const [overall, byVariant] = refcheckerTables(m)
    const responses = overall!.head.indexOf('Responses')
    expect(overall!.rows[0]![responses]).toBe('4 candidates (2 extractors)')
    // Each variant's row is one extractor's: its count is responses, as it was.
    expect(byVariant!.rows[0]![responses + 1]).toBe('2')
  })

  it('a file with one extractor keeps the plain count of responses', () => {
    expect(responsesWords(3, ['response'])).toBe('3')
    expect(responsesWords(6, ['alpaca/gpt4 triplets', 'llama/gpt4 triplets'])).toBe('6')
    expect(responsesWords(1, ['a/x triplets', 'a/y triplets'])).toBe('1 candidate (2 extractors)')
  })
})
