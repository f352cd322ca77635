import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Workspace } from '../../src/main/app/workspace'
import { pyDict } from '../../src/main/export/pyLiteral'
import { csvRecord } from '../../src/main/export/sink'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'

export const VARIANTS = ['answer', 'ungrounded_answer', 'poor_answer'] as const

/** Facts chosen to break naive writers: quotes, a backslash, a comma and a line break. */
export const ITEMS = [
  {
    extId: 'q1',
    question: 'Who wrote "Dune"?',
    reference: 'Frank Herbert wrote Dune, published in 1965.',
    answers: ['Frank Herbert wrote Dune in 1965.', 'Dune was written by an author.', 'It was Tolkien.'],
    facts: ["Frank Herbert wrote 'Dune'.", 'Dune was published in 1965, per "records".'],
    meta: {
      context_v1: 'Dune is a 1965 novel by Frank Herbert.',
      context_v2: 'ctx two',
      source: 'wiki/Dune',
    },
  },
  {
    extId: 'q2',
    question: 'What is a path separator on Windows?',
    reference: 'Windows separates paths with a backslash (\\).',
    answers: ['Windows uses \\ between folders.', 'It uses a separator.', 'A slash /.'],
    facts: ['Windows uses the backslash \\ as a path separator.', 'The separator is one\ncharacter long.'],
    meta: {},
  },
]

export type Seeded = ReturnType<typeof seedWorkspace>

/**
 * A WikiEvalFacts-style workspace: items with three answer variants, facts, labels by two
 * annotators on every fact (they disagree on one) and nothing else.
 */
export function seedWorkspace(file: string, name = 'wikievalfacts') {
  const ws = Workspace.open(freshWorkspaceFile(file))
  const ds = createDataset(ws.db, { name, labelSchema: FAAF_SCHEMA })
  const ana = ensureAnnotator(ws.db, 'Ana')
  const ben = ensureAnnotator(ws.db, 'Ben')
  const targets: { targetId: number; item: string; variant: string; fact: string }[] = []
  ws.db.transaction(() => {
    ITEMS.forEach((it, pos) => {
      const itemId = ws.content.insertItem(
        ds.id,
        { extId: it.extId, question: it.question, reference: it.reference, metadata: it.meta },
        pos,
      )
      const cands = VARIANTS.map((v, i) =>
        ws.content.insertCandidate(itemId, { variant: v, text: it.answers[i]! }),
      )
      const units = it.facts.map((f) => ws.content.insertUnit(itemId, { kind: 'fact', text: f }))
      for (const [fi, u] of units.entries())
        for (const [ci, c] of cands.entries()) {
          const targetId = ws.content.targetId(u, c)!
          targets.push({ targetId, item: it.extId, variant: VARIANTS[ci]!, fact: it.facts[fi]! })
        }
    })
  })()
  // Ground truth: the answer supports every fact, the ungrounded answer the first, the poor none.
  const truth = (t: (typeof targets)[number]) =>
    t.variant === 'answer' || (t.variant === 'ungrounded_answer' && ITEMS.some((i) => i.facts[0] === t.fact))
      ? 'true'
      : 'false'
  for (const t of targets) {
    ws.labels.save({ targetId: t.targetId, annotatorId: ana.id, verdict: truth(t), seconds: 3 })
    const benSays = t.item === 'q2' && t.variant === 'poor_answer' && t.fact.startsWith('The separator')
    ws.labels.save({ targetId: t.targetId, annotatorId: ben.id, verdict: benSays ? 'not_clear' : truth(t) })
  }
  return { ws, ds, ana, ben, targets, truth }
}

export const wsFile = (dir: string, name = 'w.factlab') => join(dir, name)

/** A file laid out like the FaaF release (CSV, Python dict literals). */
export function writeReleaseCsv(file: string) {
  const columns = [
    'question',
    'answer',
    'ungrounded_answer',
    'poor_answer',
    'context_v1',
    'context_v2',
    'source',
    'gt_facts',
    'human_evaluated_facts_answer',
    'human_evaluated_facts_ungrounded_answer',
    'human_evaluated_facts_poor_answer',
  ]
  const row = (q: string, facts: string[], labels: [string, string, string][]) => [
    q,
    `Answer to ${q}`,
    'An ungrounded answer.',
    'A poor answer.',
    'Context one.',
    '',
    'https://en.wikipedia.org/wiki/X',
    facts.map((f) => `- ${f}`).join('\n'),
    ...[0, 1, 2].map((v) => pyDict(facts.map((f, i) => [f, labels[i]![v]!] as const))),
  ]
  writeFileSync(
    file,
    [
      csvRecord(columns),
      csvRecord(
        row(
          'Which "river" is longest?',
          ["The Nile's length is about 6,650 km.", 'A back\\slash fact.'],
          [
            ['True', 'False', 'False'],
            ['True', 'True', 'Not clear'],
          ],
        ),
      ),
      csvRecord(row('Who painted it?', ['It was painted in 1503.'], [['True', 'False', 'False']])),
    ].join(''),
  )
}
