import { describe, expect, it } from 'vitest'
import { parseControlLines } from '../../src/shared/controlLines'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

const tmp = tmpDirs()

/** wiki: items q0, q1 with facts 1 and 2, each judged against v0 and v1. */
function workspace() {
  const { ws, ds } = seedProject(tmp(), { items: 2, variants: 2, facts: 2, annotators: 1 })
  const targetOf = (item: string, variant: string, fact: string) =>
    (
      ws.db
        .prepare(
          `SELECT t.id FROM targets t JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id
           JOIN units u ON u.id = t.unit_id WHERE i.ext_id = ? AND c.variant = ? AND u.text = ?`,
        )
        .get(item, variant, fact) as { id: number }
    ).id
  const expected = { q1v1f2: targetOf('q1', 'v1', 'Fact 1.1'), q0v0f1: targetOf('q0', 'v0', 'Fact 0.0') }
  const file = ws.file
  ws.close()
  return { file, datasetId: ds.id, expected }
}

const mark = (file: string, datasetId: number, lines: string) =>
  cli(['call', 'projects.setControls', JSON.stringify({ datasetId, lines }), '--workspace', file])

const controls = async (file: string, datasetId: number) =>
  JSON.parse(
    (await cli(['call', 'projects.controls', JSON.stringify({ datasetId }), '--workspace', file])).out,
  )

describe('control answers named as people name things', () => {
  it('takes item,variant,unit,verdict lines (units numbered as the Units view shows them) and targetId lines', async () => {
    const { file, datasetId, expected } = workspace()
    const r = await mark(
      file,
      datasetId,
      `item,variant,unit,verdict\nq1,v1,2,false\n${expected.q0v0f1},true\n`,
    )
    expect(r.code, r.err).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ added: 2, controls: 2, skipped: 0 })
    expect(await controls(file, datasetId)).toEqual(
      expect.arrayContaining([
        { targetId: expected.q1v1f2, verdict: 'false', source: 'file' },
        { targetId: expected.q0v0f1, verdict: 'true', source: 'file' },
      ]),
    )
  })

  it('marks nothing while a line is not understood, and names each such line and why', async () => {
    const { file, datasetId } = workspace()
    const r = await mark(
      file,
      datasetId,
      'hello world\nq1,v1,2,false\nq9,v1,1,true\nq1,v7,1,true\nq1,v1,5,true\nq1,v1,1,maybe',
    )
    expect(r.code).toBe(1)
    expect(r.err).toBe(
      'factlab: No controls were marked. Not understood: ' +
        'line 1 “hello world”: 1 value where 4 (or 2) are expected: write item,variant,unit,verdict (or targetId,verdict); ' +
        'line 3 “q9,v1,1,true”: this dataset has no item “q9”; ' +
        'line 4 “q1,v7,1,true”: item “q1” has no variant “v7” (it has v0, v1); ' +
        'line 5 “q1,v1,5,true”: item “q1” has 2 units; there is no unit 5; ' +
        'line 6 “q1,v1,1,maybe”: "maybe" is not one of "true", "false", "not_clear"\n',
    )
    expect(await controls(file, datasetId)).toEqual([])
  })
})

describe('the Controls panel’s reading of typed lines', () => {
  it('says which lines it cannot read as the lead types', () => {
    expect(parseControlLines('hello world').problems).toEqual([
      {
        line: 1,
        text: 'hello world',
        problem: '1 value where 4 (or 2) are expected: write item,variant,unit,verdict (or targetId,verdict)',
      },
    ])
    const { lines, problems } = parseControlLines(
      'targetId;verdict\n12;true\n"q,1"\tanswer\t2\tfalse\nq2,answer,two,true',
    )
    expect(lines).toEqual([
      { line: 2, text: '12;true', targetId: 12, verdict: 'true' },
      { line: 3, text: '"q,1"\tanswer\t2\tfalse', item: 'q,1', variant: 'answer', unit: 2, verdict: 'false' },
    ])
    expect(problems.map((p) => [p.line, p.problem])).toEqual([
      [4, 'the unit “two” is not a unit number (1, 2, … as the Units view shows them)'],
    ])
  })
})
