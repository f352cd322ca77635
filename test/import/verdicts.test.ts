import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFile, importVerdicts } from '../../src/main/import'
import { fixture, rows, tableCounts, workspaces } from './helpers'

const { ws: newWs, dir } = workspaces()

async function seeded() {
  const ws = newWs()
  await importFile(ws, { file: fixture('wikievalfacts.csv'), datasetName: 'wef' })
  return ws
}

interface VerdictRow {
  item: string
  variant: string
  unit: string
  status: string
  verdict: string | null
  reason: string | null
}

describe('external judge verdicts', () => {
  it('become a finished run of provider "imported", unknown answers as N/A', async () => {
    const ws = await seeded()
    const r = await importVerdicts(ws, {
      file: fixture('faaf_verdicts.jsonl'),
      datasetName: 'wef',
      model: 'ext-model',
      // An older file: units counted from 0 within each candidate (fact_2 names FaaF's field).
      unitBase: 0,
    })
    expect(r).toMatchObject({ verdicts: 5, skipped: [] })
    const run = rows<Record<string, unknown>>(ws, 'SELECT * FROM runs WHERE id = ?', r.runId)[0]!
    expect(run).toMatchObject({ kind: 'imported', provider: 'imported', model: 'ext-model', status: 'done' })
    const v = rows<VerdictRow>(
      ws,
      `SELECT i.ext_id AS item, c.variant, u.text AS unit, v.status, v.verdict, v.reason FROM verdicts v
       JOIN targets t ON t.id = v.target_id JOIN items i ON i.id = t.item_id
       JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
       WHERE v.run_id = ? ORDER BY v.id`,
      r.runId,
    )
    expect(v.map((x) => [x.item, x.variant, x.unit, x.status, x.verdict])).toEqual([
      ['1', 'answer', 'The Corran River flows through Elmbridge Falls.', 'ok', 'true'],
      ['1', 'answer', 'The Corran River powered three paper mills.', 'ok', 'true'],
      ['1', 'poor_answer', 'The paper mills operated in the 1800s.', 'ok', 'not_clear'],
      ['2', 'ungrounded_answer', 'The Vantor Prize was first given in 1998.', 'na', null],
      ['3', 'answer', 'Mira Halloway designed the Halloway glider.', 'na', null],
    ])
    expect(v[1]!.reason).toBe('stated')
    expect(v[4]!.reason).toBe('"maybe" is not one of true, false, not_clear')
  })

  it('a row naming an unknown item refuses the file and leaves no run behind', async () => {
    const ws = await seeded()
    const before = tableCounts(ws)
    const file = join(dir(), 'v.jsonl')
    writeFileSync(
      file,
      `${JSON.stringify({ item_id: '1', variant: 'answer', unit: 1, verdict: 'true' })}\n${JSON.stringify({ item_id: '99', variant: 'answer', unit: 1, verdict: 'true' })}\n`,
    )
    await expect(importVerdicts(ws, { file, datasetName: 'wef' })).rejects.toThrow(
      `${file}, line 2: field "item_id": no item with id "99" in this dataset`,
    )
    expect(tableCounts(ws)).toEqual(before)
    const r = await importVerdicts(ws, { file, datasetName: 'wef', skipBadRows: true })
    expect(r.verdicts).toBe(1)
    expect(r.skipped).toEqual([
      { line: 2, at: 'line 2', reason: 'field "item_id": no item with id "99" in this dataset' },
    ])
  })

  it('names a unit index out of range, a second verdict for one target, and a missing column', async () => {
    const ws = await seeded()
    const file = join(dir(), 'v.csv')
    writeFileSync(file, 'item_id,variant,unit,verdict\n1,answer,7,true\n1,answer,0,true\n1,answer,0,false\n')
    const r = await importVerdicts(ws, { file, datasetName: 'wef', skipBadRows: true, unitBase: 0 })
    expect(r.skipped).toEqual([
      { line: 2, at: 'line 2', reason: 'field "unit": unit index 7 is out of range (0–2)' },
      { line: 4, at: 'line 4', reason: 'field "unit": a second verdict for the same target' },
    ])
    const noVerdict = join(dir(), 'nv.csv')
    writeFileSync(noVerdict, 'item_id,variant,unit\n1,answer,0\n')
    await expect(importVerdicts(ws, { file: noVerdict, datasetName: 'wef' })).rejects.toThrow(
      `${noVerdict}: missing required column "verdict"`,
    )
  })

  it('counts units from 1 as `units list` does; a 0-based file is pointed to --unit-base 0', async () => {
    const ws = await seeded()
    const file = join(dir(), 'one.csv')
    writeFileSync(
      file,
      'item_id,variant,unit,verdict\n1,answer,1,true\n1,poor_answer,3,false\n1,answer,0,true\n1,answer,4,true\n',
    )
    const r = await importVerdicts(ws, { file, datasetName: 'wef', skipBadRows: true })
    expect(r.skipped).toEqual([
      {
        line: 4,
        at: 'line 4',
        reason:
          'field "unit": item "1" has 3 units numbered 1–3; there is no unit 0 (a file that counts from 0 imports with --unit-base 0)',
      },
      {
        line: 5,
        at: 'line 5',
        reason: 'field "unit": item "1" has 3 units numbered 1–3; there is no unit 4',
      },
    ])
    const v = rows<{ unit: string; variant: string }>(
      ws,
      `SELECT u.text AS unit, c.variant FROM verdicts v JOIN targets t ON t.id = v.target_id
       JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id WHERE v.run_id = ? ORDER BY v.id`,
      r.runId,
    )
    // Unit 1 and unit 3 of item 1 as `units list` numbers them (facts first, in order).
    expect(v).toEqual([
      { unit: 'The Corran River flows through Elmbridge Falls.', variant: 'answer' },
      { unit: 'The paper mills operated in the 1800s.', variant: 'poor_answer' },
    ])
    const fact = join(dir(), 'fact.jsonl')
    writeFileSync(
      fact,
      `${JSON.stringify({ item_id: '1', variant: 'answer', unit: 'fact_0', verdict: 'true' })}\n`,
    )
    await expect(importVerdicts(ws, { file: fact, datasetName: 'wef' })).rejects.toThrow(
      '"fact_0" counts units from 0 (FaaF\'s field names); import this file with --unit-base 0',
    )
  })

  it('refuses a dataset that does not exist', async () => {
    const ws = await seeded()
    await expect(
      importVerdicts(ws, { file: fixture('faaf_verdicts.jsonl'), datasetName: 'nope' }),
    ).rejects.toThrow('No dataset named "nope" in this workspace')
  })
})
