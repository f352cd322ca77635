import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { cli } from '../helpers/cli'
import { demoWorkspaceIn } from '../helpers/demoWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const DEMO = 'Demo: WikiEval-style'

interface State {
  history: number
  annotators: number
  labels: string
}

function state(file: string): State {
  const ws = Workspace.open(file)
  try {
    const n = (sql: string) => (ws.db.prepare(sql).get() as { n: number }).n
    const labels = ws.db
      .prepare('SELECT target_id, annotator_id, verdict, note FROM labels ORDER BY target_id, annotator_id')
      .all()
    return {
      history: n('SELECT COUNT(*) AS n FROM label_history'),
      annotators: n('SELECT COUNT(*) AS n FROM annotators'),
      labels: JSON.stringify(labels),
    }
  } finally {
    ws.close()
  }
}

/** Lines a script might write: mostly right, sometimes a wrong item, variant, unit, verdict or field. */
const line = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      item: fc.constantFrom('demo-01', 'demo-02', 'demo-05'),
      variant: fc.constantFrom('answer', 'ungrounded_answer', 'poor_answer'),
      unit: fc.integer({ min: 1, max: 3 }),
      verdict: fc.constantFrom('true', 'false', 'not_clear', null),
      note: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      item: fc.constantFrom('demo-01', 'nope'),
      variant: fc.constantFrom('answer', 'ANSWER'),
      unit: fc.integer({ min: -1, max: 40 }),
      verdict: fc.oneof(fc.constantFrom('true', 'maybe', ''), fc.string({ maxLength: 5 })),
    }),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
)

describe('factlab label --file: all or nothing', () => {
  it('any file either saves every line or leaves labels, history and annotators as they were', async () => {
    const dir = tmp()
    const file = demoWorkspaceIn(dir)
    let n = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (lines, newcomer) => {
          const labels = join(dir, `labels-${n++}.jsonl`)
          writeFileSync(labels, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'))
          const who = newcomer ? `new-${n}` : 'alex'
          const before = state(file)
          const r = await cli([
            'label',
            '--file',
            labels,
            '--dataset',
            DEMO,
            '--annotator',
            who,
            '--new-annotator',
            '--workspace',
            file,
            '--json',
          ])
          const after = state(file)
          const written = lines.filter((l) => typeof l !== 'string' || l.trim() !== '').length
          if (r.code === 0) {
            expect(JSON.parse(r.out)).toMatchObject({ saved: written })
            expect(after.history).toBe(before.history + written)
          } else {
            expect(r.code).toBe(1)
            expect(r.err).toMatch(/line \d+: .*nothing was saved/s)
            expect(after).toEqual(before)
          }
        },
      ),
      { numRuns: 25 },
    )
  })
})
