import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { resolveGold } from '../../src/main/labels/gold'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { EXPORT_FORMAT_NAMES } from '../../src/shared/contract/exports'
import {
  DCR_SCHEMA,
  FAAF_SCHEMA,
  type LabelSchema,
  numericSchema,
  REFCHECKER_SCHEMA,
  type UnitKind,
} from '../../src/shared/labelSchemas'
import { type TestApp, testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const app = testApps()

interface Shape {
  kind: UnitKind
  schema: LabelSchema
  /** Verdicts the two annotators give, in turn. */
  verdicts: string[]
  variants: string[]
}

const WIKIEVAL = ['answer', 'ungrounded_answer', 'poor_answer']
const TWO = ['answer', 'other']

const SHAPES: Shape[] = [
  { kind: 'fact', schema: FAAF_SCHEMA, verdicts: ['true', 'false', 'not_clear'], variants: WIKIEVAL },
  {
    kind: 'triplet',
    schema: REFCHECKER_SCHEMA,
    verdicts: ['entailment', 'neutral', 'contradiction'],
    variants: TWO,
  },
  { kind: 'sentence', schema: DCR_SCHEMA, verdicts: ['consistent', 'inconsistent'], variants: TWO },
  { kind: 'whole', schema: numericSchema('likert', 1, 5, 4), verdicts: ['1', '4', '5'], variants: TWO },
  // A release layout's units with the other release's labels, or without its answer columns.
  { kind: 'triplet', schema: FAAF_SCHEMA, verdicts: ['true', 'false'], variants: TWO },
  { kind: 'fact', schema: REFCHECKER_SCHEMA, verdicts: ['entailment', 'contradiction'], variants: WIKIEVAL },
  { kind: 'fact', schema: FAAF_SCHEMA, verdicts: ['true', 'false'], variants: TWO },
]

const TARGETS = ['jsonl', 'csv', 'parquet']

/** What each layout can carry, spelled out: the targets layout anything, a release only its own. */
function fits(format: string, s: Shape): boolean {
  if (TARGETS.includes(format)) return true
  if (format.startsWith('wikievalfacts'))
    return s.kind === 'fact' && s.schema.name === 'faaf' && s.variants === WIKIEVAL
  return s.kind === 'triplet' && s.schema.name === 'refchecker'
}

const named = (s: Shape) => `${s.kind}-${s.schema.name}-${s.variants.length}`

/** Two items with two answers each, two units of the shape's kind, labelled by two people. */
function seed(file: string, s: Shape): number {
  const ws = Workspace.open(file)
  try {
    const ds = createDataset(ws.db, { name: named(s), labelSchema: s.schema })
    const people = ['Ana', 'Ben'].map((n) => ensureAnnotator(ws.db, n))
    const targets: number[] = []
    ws.db.transaction(() => {
      for (let i = 1; i <= 2; i++) {
        const item = ws.content.insertItem(
          ds.id,
          { extId: `q${i}`, question: `Question ${i}?`, reference: `Reference ${i}.` },
          i,
        )
        for (const variant of s.variants) {
          const text = `The ${variant} to question ${i}.`
          const c = ws.content.insertCandidate(item, { variant, text })
          if (s.kind === 'fact') continue
          for (let u = 1; u <= (s.kind === 'whole' ? 1 : 2); u++) {
            const triplet: [string, string, string] = [`subject ${i}`, `relates ${u} to`, variant]
            const unit = ws.content.insertUnit(item, {
              kind: s.kind,
              text: s.kind === 'triplet' ? triplet.join(' ') : s.kind === 'whole' ? text : `Sentence ${u}.`,
              candidateId: c,
              ...(s.kind === 'triplet' ? { triplet } : {}),
            })
            targets.push(ws.content.targetId(unit, c)!)
          }
        }
        if (s.kind === 'fact')
          for (let u = 1; u <= 2; u++) {
            const unit = ws.content.insertUnit(item, { kind: 'fact', text: `Fact ${u} of question ${i}.` })
            for (const t of ws.db.prepare('SELECT id FROM targets WHERE unit_id = ?').pluck().all(unit))
              targets.push(t as number)
          }
      }
    })()
    targets.forEach((t, k) => {
      people.forEach((p, a) => {
        const verdict = s.verdicts[(k + (k % 3 === 0 ? a : 0)) % s.verdicts.length]!
        ws.labels.save({ targetId: t, annotatorId: p.id, verdict })
      })
    })
    return ds.id
  } finally {
    ws.close()
  }
}

// Items by their question: WikiEvalFacts has no id column, so its items come back numbered by row.
const KEY = `i.question || ' / ' || c.variant || ' / ' || u.kind || ' / ' || u.text`

function units(a: TestApp, datasetId: number): string[] {
  return a.ctx.workspace.db
    .prepare(
      `SELECT ${KEY} FROM targets t JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id
       JOIN units u ON u.id = t.unit_id WHERE t.dataset_id = ? ORDER BY 1`,
    )
    .pluck()
    .all(datasetId) as string[]
}

function labels(a: TestApp, datasetId: number): string[] {
  return a.ctx.workspace.db
    .prepare(
      `SELECT ${KEY} || ' : ' || a.name || ' → ' || l.verdict FROM labels l JOIN annotators a ON a.id = l.annotator_id
       JOIN targets t ON t.id = l.target_id JOIN items i ON i.id = t.item_id
       JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? ORDER BY 1`,
    )
    .pluck()
    .all(datasetId) as string[]
}

/** The gold of each target, as the one name a release layout's import gives its labels. */
function goldAs(a: TestApp, datasetId: number, name: string): string[] {
  const gold = resolveGold(a.ctx.workspace.db, datasetId)
  const key = a.ctx.workspace.db.prepare(
    `SELECT ${KEY} FROM targets t JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id
     JOIN units u ON u.id = t.unit_id WHERE t.id = ?`,
  )
  return [...gold.values()]
    .map((g) => `${key.pluck().get(g.targetId) as string} : ${name} → ${g.verdict}`)
    .sort()
}

describe('every export layout with every unit kind: refused, or imported back to the same units and labels', () => {
  for (const s of SHAPES)
    it.each(EXPORT_FORMAT_NAMES)(
      `${s.kind} units labelled in ${s.schema.name}, answers ${s.variants.join(' ')}: %s`,
      async (format) => {
        const dir = tmp()
        const file = join(dir, 'w.factlab')
        const datasetId = seed(freshWorkspaceFile(file), s)
        const a = app(file)
        const outDir = join(dir, 'out')
        const r = await a.call('exports.dataset', { datasetId, format, outDir })
        if (!fits(format, s)) {
          expect(r.ok).toBe(false)
          if (r.ok) return
          expect(r.error.code).toBe('bad_input')
          const carry = EXPORT_FORMAT_NAMES.filter((f) => fits(f, s))
          expect(r.error.message).toContain(`cannot be exported as ${format}: that layout `)
          expect(r.error.message).toContain(`Layouts that carry it: ${carry.join(', ')}.`)
          // Nothing was written, not even the folder.
          expect(existsSync(outDir)).toBe(false)
          return
        }
        expect(r.ok).toBe(true)
        if (!r.ok) return
        const { files } = r.value as { files: string[] }
        const b = app(freshWorkspaceFile(join(dir, 'back.factlab')))
        // RefChecker's release is a folder of files, one per answer variant, picked together; the
        // other layouts write one data file (the card and any per-response figures beside it).
        const data =
          format === 'refchecker-json' ? files.filter((f) => !f.endsWith('README.md')) : [files[0]!]
        const back = await b.value<{ datasetId: number }>('datasets.import', {
          source: { path: data[0]! },
          moreSources: data.slice(1).map((path) => ({ path })),
        })
        expect(units(b, back.datasetId)).toEqual(units(a, datasetId))
        if (TARGETS.includes(format)) {
          expect(labels(b, back.datasetId)).toEqual(labels(a, datasetId))
          const list = await b.value<{ labelSchema: LabelSchema }[]>('datasets.list', {})
          expect(list[0]!.labelSchema).toEqual(s.schema)
        } else {
          // A release holds one label per unit and answer: the gold, under the release's name.
          const name = format === 'refchecker-json' ? 'refchecker' : 'wikievalfacts'
          expect(labels(b, back.datasetId)).toEqual(goldAs(a, datasetId, name))
        }
      },
    )
})

describe('the CLI refuses a layout that cannot carry the dataset', () => {
  it('refchecker-json of a fact-labelled dataset: exit 1, the layouts that can, and no folder', async () => {
    const dir = tmp()
    const file = join(dir, 'w.factlab')
    seed(file, SHAPES[0]!)
    const out = join(dir, 'rc')
    const r = await cli([
      'export',
      '--workspace',
      file,
      '--dataset',
      'fact-faaf-3',
      '--format',
      'refchecker-json',
      '--out',
      out,
    ])
    expect(r.code).toBe(1)
    expect(r.err).toContain(
      'Dataset "fact-faaf-3" cannot be exported as refchecker-json: that layout holds triplet units only, and this dataset has fact units. Layouts that carry it: jsonl, csv, parquet, wikievalfacts-csv, wikievalfacts-jsonl.',
    )
    expect(r.out).toBe('')
    expect(existsSync(out)).toBe(false)
  })
})
