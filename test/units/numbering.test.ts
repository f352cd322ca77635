import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openWorkspace } from '../../src/main/store/connection'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

/** One unit numbering: export-verdicts, import-verdicts, units list, label and adjudicate agree. */
const dir = tmpDirs()
const FIXTURE = join(__dirname, '..', 'fixtures', 'itemLevel', 'qags_small.jsonl')

describe('unit numbers', () => {
  it('are the same 1-based numbers in every command and file', async () => {
    const d = dir()
    const db = join(d, 'ws.factlab')
    expect((await cli(['import', FIXTURE, '--workspace', db, '--dataset', 'q'])).code).toBe(0)
    const judged = await cli([
      'judge',
      'run',
      '--workspace',
      db,
      '--dataset',
      'q',
      '--provider',
      'lexical',
      '--model',
      'rougeL',
      '--method',
      'lexical',
      '--json',
    ])
    expect(judged.code, judged.err).toBe(0)
    const out = join(d, 'v.jsonl')
    expect((await cli(['export-verdicts', '--workspace', db, '--run', '1', '--out', out])).code).toBe(0)
    const exported = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { item_id: string; unit: number; unit_text: string; verdict: string })
    const w = openWorkspace(db)
    const extIds = w.prepare('SELECT ext_id FROM items ORDER BY position').pluck().all() as string[]
    w.close()
    // The fourth summary has three sentences: numbers 1, 2, 3 in export-verdicts and units list alike.
    const fourth = extIds[3]!
    const listed = JSON.parse(
      (await cli(['units', 'list', '--workspace', db, '--dataset', 'q', '--item', fourth, '--json'])).out,
    ) as { units: { number: number; text: string }[] }
    const rows = exported.filter((r) => r.item_id === fourth)
    expect(rows.map((r) => [r.unit, r.unit_text])).toEqual(listed.units.map((u) => [u.number, u.text]))
    expect(rows.map((r) => r.unit)).toEqual([1, 2, 3])

    // label and adjudicate name unit 3 the same way.
    const label = await cli([
      'label',
      '--workspace',
      db,
      '--dataset',
      'q',
      '--item',
      fourth,
      '--unit',
      '3',
      '--verdict',
      'inconsistent',
      '--annotator',
      'ann',
      '--new-annotator',
      '--json',
    ])
    expect(label.code, label.err).toBe(0)
    expect(JSON.parse(label.out)).toMatchObject({ unit: 3 })
    const gold = await cli([
      'adjudicate',
      '--workspace',
      db,
      '--dataset',
      'q',
      '--item',
      fourth,
      '--unit',
      '3',
      '--verdict',
      'inconsistent',
      '--annotator',
      'lead',
      '--new-annotator',
      '--json',
    ])
    expect(JSON.parse(gold.out)).toMatchObject({ unit: 3 })
    const w2 = openWorkspace(db)
    const texts = w2
      .prepare(
        `SELECT u.text FROM labels l JOIN annotators a ON a.id = l.annotator_id JOIN targets t ON t.id = l.target_id
         JOIN units u ON u.id = t.unit_id WHERE a.name = 'ann'
         UNION ALL SELECT u.text FROM gold g JOIN targets t ON t.id = g.target_id JOIN units u ON u.id = t.unit_id`,
      )
      .pluck()
      .all()
    w2.close()
    expect(texts).toEqual([listed.units[2]!.text, listed.units[2]!.text])

    // The exported file imports back onto the very same targets.
    const back = await cli(['import-verdicts', out, '--workspace', db, '--dataset', 'q', '--json'])
    expect(back.code, back.err).toBe(0)
    expect(JSON.parse(back.out)).toMatchObject({ verdicts: exported.length, skipped: [] })
    const w3 = openWorkspace(db)
    const same = w3
      .prepare(
        `SELECT COUNT(*) FROM verdicts a JOIN verdicts b ON a.target_id = b.target_id AND a.verdict = b.verdict
         WHERE a.run_id = 1 AND b.run_id = ?`,
      )
      .pluck()
      .get(JSON.parse(back.out).runId)
    w3.close()
    expect(same).toBe(exported.length)
  })
})
