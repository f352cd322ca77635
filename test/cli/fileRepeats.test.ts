import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { countIn as count, demoWorkspaceIn } from '../helpers/demoWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const DEMO = 'Demo: WikiEval-style'

const demoWorkspace = () => demoWorkspaceIn(tmp())

const jsonl = (rows: object[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`

describe('label --file and adjudicate --file name each target once', () => {
  it.each(['label', 'adjudicate'] as const)(
    '%s refuses a target given twice, naming both lines, and saves nothing',
    async (command) => {
      const file = demoWorkspace()
      const units = await cli([
        'units',
        'list',
        '--dataset',
        DEMO,
        '--item',
        'demo-01',
        '--workspace',
        file,
        '--json',
      ])
      const firstText = (JSON.parse(units.out) as { units: { text: string }[] }).units[0]!.text
      const lines = join(tmp(), 'lines.jsonl')
      writeFileSync(
        lines,
        jsonl([
          { item: 'demo-01', variant: 'answer', unit: 1, verdict: 'true' },
          { item: 'demo-01', variant: 'answer', unit: 2, verdict: 'true' },
          // Unit 1 again, named by its text: still the same target.
          { item: 'demo-01', variant: 'answer', unitText: firstText, verdict: 'false' },
        ]),
      )
      const history = 'SELECT (SELECT COUNT(*) FROM label_history) + (SELECT COUNT(*) FROM gold_history) AS n'
      const before = count(file, history)
      const r = await cli([
        command,
        '--file',
        lines,
        '--dataset',
        DEMO,
        '--annotator',
        'rae',
        '--new-annotator',
        '--workspace',
        file,
      ])
      expect(r.err).toBe(
        `factlab: ${lines} line 3: names the same target as line 1 (item demo-01, answer, unit 1` +
          `${command === 'label' ? ', for rae' : ''}); give each target once; nothing was saved\n`,
      )
      expect(r.code).toBe(1)
      expect(count(file, history)).toBe(before)
      expect(count(file, "SELECT COUNT(*) AS n FROM annotators WHERE name = 'rae'")).toBe(0)
    },
  )

  it('label --file takes one target from two different people', async () => {
    const file = demoWorkspace()
    const lines = join(tmp(), 'lines.jsonl')
    writeFileSync(
      lines,
      jsonl([
        { item: 'demo-01', variant: 'answer', unit: 1, verdict: 'true', annotator: 'rae' },
        { item: 'demo-01', variant: 'answer', unit: 1, verdict: 'false', annotator: 'ula' },
      ]),
    )
    const r = await cli(['label', '--file', lines, '--dataset', DEMO, '--new-annotator', '--workspace', file])
    expect(r.code, r.err).toBe(0)
    expect(r.out).toBe(`Saved 2 labels from ${lines} (0 cleared)\n`)
  })
  it('adjudicate --file counts one decision in the singular', async () => {
    const file = demoWorkspace()
    const lines = join(tmp(), 'lines.jsonl')
    writeFileSync(lines, jsonl([{ item: 'demo-01', variant: 'answer', unit: 1, verdict: 'true' }]))
    const r = await cli([
      'adjudicate',
      '--file',
      lines,
      '--dataset',
      DEMO,
      '--annotator',
      'rae',
      '--new-annotator',
      '--workspace',
      file,
    ])
    expect(r.code, r.err).toBe(0)
    expect(r.out).toBe(`Recorded 1 gold decision from ${lines}\n`)
  })
})
