import { Workspace } from '../../src/main/app/workspace'
import { saveGuidelines } from '../../src/main/guidelines/guidelines'
import { setGold } from '../../src/main/labels/gold'
import { setGoldRule } from '../../src/main/labels/ruleService'
import { setControls } from '../../src/main/projects/controls'
import { setPlan } from '../../src/main/projects/plan'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import type { TestApp } from '../helpers/app'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'

const VARIANTS = ['answer', 'ungrounded_answer', 'poor_answer'] as const
const VERDICTS = ['true', 'false', 'not_clear'] as const

/**
 * A finished annotation project as a lead's workspace holds it: three people (one with a space
 * and capitals in their name) and a dataset's own reference labels under a source, overlapping
 * labels with disagreements, notes, time and evidence, adjudicated and imported gold, control
 * items, a sentence unit beside the facts, and an answer with no units at all. The first labels
 * were given before any guidelines, later ones under version 1 or 2; the plan splits the items
 * among the three and a fourth who has not labelled yet, with rates per person and for the dataset.
 */
export function seedProject(file: string): { datasetId: number } {
  const ws = Workspace.open(freshWorkspaceFile(file))
  try {
    const db = ws.db
    const ds = createDataset(db, { name: 'wiki', labelSchema: FAAF_SCHEMA })
    const people = ['Ana', 'ben', 'Cara Zed'].map((n) => ensureAnnotator(db, n))
    const release = ensureAnnotator(db, 'release')
    db.prepare("UPDATE annotators SET kind = 'source' WHERE id = ?").run(release.id)
    const lead = ensureAnnotator(db, 'Lead')
    const targets: number[] = []
    db.transaction(() => {
      for (let i = 1; i <= 4; i++) {
        const item = ws.content.insertItem(
          ds.id,
          {
            extId: `q${i}`,
            question: `Question ${i}, with "quotes"?`,
            reference: `Reference ${i}: the river, the mill and the year 18${i}0.`,
          },
          i,
        )
        if (i === 4) {
          // Nothing to judge yet: one answer, no units.
          ws.content.insertCandidate(item, { variant: 'answer', text: 'An answer waiting for its facts.' })
          continue
        }
        const cands = VARIANTS.map((v) =>
          ws.content.insertCandidate(item, {
            variant: v,
            text: `${v} to question ${i}, line one.\nLine two.`,
          }),
        )
        for (const f of [`The river of item ${i} is long.`, `The mill of item ${i} was built in 18${i}0.`]) {
          const u = ws.content.insertUnit(item, { kind: 'fact', text: f })
          for (const c of cands) targets.push(ws.content.targetId(u, c)!)
        }
        if (i === 1) {
          const s = ws.content.insertUnit(item, {
            kind: 'sentence',
            text: 'Line two.',
            candidateId: cands[0]!,
          })
          targets.push(ws.content.targetId(s, cands[0]!)!)
        }
      }
    })()
    // Overlapping labels: each target gets two to four givers, who sometimes disagree.
    targets.forEach((t, k) => {
      if (k === 4)
        saveGuidelines(db, ds.id, '# How to judge\n\nA fact is **true** when the reference says it.', 'Lead')
      if (k === 12)
        saveGuidelines(
          db,
          ds.id,
          '# How to judge\n\nA fact is **true** when the reference says it.\n\nDates: "built in" is the year work ended.',
          'Ana',
        )
      const givers = [...people, release].filter((_, a) => (k + a) % 4 !== 0 || a === 3)
      givers.forEach((p, a) => {
        const verdict = VERDICTS[(k * 7 + a * (k % 3 === 0 ? 1 : 0)) % 3]!
        // Who labelled a target first varies (not the order of the file's columns): which labels
        // came past k hangs on it.
        const at = new Date(Date.UTC(2026, 0, 1, 9, k, (a * 7 + Math.floor(k / 4) * 3) % 4)).toISOString()
        ws.labels.save(
          {
            targetId: t,
            annotatorId: p.id,
            verdict,
            seconds: p.id === release.id ? 0 : 2 + ((k + a) % 5),
            ...(k % 5 === 1 && p.id === people[0]!.id ? { note: `checked twice, "${k}"` } : {}),
            ...(k % 6 === 2 && p.id === people[2]!.id
              ? { evidence: [{ pane: 'reference' as const, start: 0, end: 9 }] }
              : {}),
          },
          undefined,
          at,
        )
      })
    })
    setGold(db, { targetId: targets[0]!, verdict: 'false', source: 'adjudicated', adjudicatorId: lead.id })
    setGold(db, { targetId: targets[3]!, verdict: 'true', source: 'adjudicated', adjudicatorId: lead.id })
    setGold(db, { targetId: targets[7]!, verdict: 'not_clear', source: 'import' })
    // Metadata as imports keep it (a release's fields, SummEval's crowd ratings), and a gold rule
    // of the lead's own: a tie counts as unsupported, and only targets with two labels have gold.
    db.prepare("UPDATE items SET metadata = ? WHERE dataset_id = ? AND ext_id = 'q2'").run(
      JSON.stringify({ source: 'wiki/Mill', year: 1820, tags: ['river', 'mill'] }),
      ds.id,
    )
    db.prepare(
      "UPDATE candidates SET metadata = ? WHERE variant = 'poor_answer' AND item_id IN (SELECT id FROM items WHERE ext_id = 'q1')",
    ).run(JSON.stringify({ turker_annotations: [{ consistency: 3 }, { consistency: 5 }], model: 'M7' }))
    setPlan(db, {
      datasetId: ds.id,
      k: 2,
      policy: 'fixed',
      seed: 7,
      controlRate: 0.1,
      hourlyRate: 20,
      annotators: [
        { name: 'Ana', hourlyRate: 30 },
        { name: 'ben', hourlyRate: null },
        { name: 'Cara Zed', hourlyRate: 25.5 },
        { name: 'Dee', hourlyRate: 18 },
      ],
    })
    setGoldRule(db, ds.id, { kind: 'majority', tie: 'unsupported', minLabels: 2 }, 'Lead')
    setControls(
      db,
      ds.id,
      {
        fromGold: [targets[3]!],
        answers: [
          { targetId: targets[5]!, verdict: 'true' },
          { targetId: targets[12]!, verdict: 'false' },
        ],
      },
      '2026-01-01T00:00:00.000Z',
    )
    return { datasetId: ds.id }
  } finally {
    ws.close()
  }
}

const key = `i.ext_id || ' / ' || c.variant || ' / ' || u.kind || ' / ' || u.text`

/**
 * Everything a person sees of a dataset, read through the app's own calls (the views' figures)
 * and, for what no view lists whole, its rows named by item, answer and unit text.
 */
export async function whatPeopleSee(app: TestApp, datasetId: number) {
  const list = await app.value<
    {
      id: number
      items: number
      candidates: number
      units: number
      targets: number
      variants: string[]
      labelSchema: unknown
      labelledBy: { name: string; labelled: number; source: boolean }[]
    }[]
  >('datasets.list', {})
  const ds = list.find((d) => d.id === datasetId)!
  const agreement = await app.value('agreement.summary', { datasetId })
  const queue = await app.value<{ open: number; adjudicated: number }>('agreement.queue', {
    datasetId,
    status: 'all',
  })
  const metrics = await app.value<{
    targets: number
    goldTargets: number
    labels: string[]
    variants: string[]
    humans: Record<string, unknown>[]
  }>('metrics.compare', { datasetId })
  const { rule, description } = await app.value<{ rule: unknown; description: string }>('gold.rule', {
    datasetId,
  })
  const dashboard = await app.value<{ annotators: { overK: number }[] }>('projects.dashboard', {
    datasetId,
  })
  const guidelines = await app.value<{ current: unknown; history: unknown[] }>('projects.guidelines', {
    datasetId,
  })
  // The Agreement view with its guidelines filter set to each version.
  const byVersion = await Promise.all(
    [1, 2].map((guidelinesVersion) => app.value('agreement.summary', { datasetId, guidelinesVersion })),
  )
  const db = app.ctx.workspace.db
  const rows = (sql: string) => db.prepare(sql).all(datasetId) as Record<string, unknown>[]
  return {
    goldRule: { rule, description },
    // The Project dashboard: plan, progress, rates, cost and labels past k per person (ids
    // differ between workspaces; past k hangs on when each label was given, which travels).
    dashboard: withoutIds(dashboard),
    guidelines: { current: guidelines.current, history: guidelines.history },
    agreementByVersion: byVersion,
    assignments: rows(
      `SELECT a.name, i.ext_id FROM assignments s JOIN annotators a ON a.id = s.annotator_id
       JOIN items i ON i.id = s.item_id WHERE s.dataset_id = ? ORDER BY a.name, i.ext_id`,
    ),
    summary: {
      items: ds.items,
      candidates: ds.candidates,
      units: ds.units,
      targets: ds.targets,
      variants: ds.variants,
      labelSchema: ds.labelSchema,
      labelledBy: ds.labelledBy.map(({ name, labelled, source }) => ({ name, labelled, source })),
    },
    agreement,
    queue: { open: queue.open, adjudicated: queue.adjudicated },
    metrics: {
      targets: metrics.targets,
      goldTargets: metrics.goldTargets,
      labels: metrics.labels,
      // Listed in the order of their first target's id, which an import allocates answer by answer
      // and the app's own writer variant by variant: the same variants either way.
      variants: [...metrics.variants].sort(),
      // Ids differ between workspaces.
      humans: metrics.humans.map(({ annotatorId: _, ...h }) => h),
    },
    itemMetadata: rows(
      "SELECT ext_id, metadata FROM items WHERE dataset_id = ? AND metadata NOT IN ('{}', '') ORDER BY position",
    ),
    answers: rows(
      `SELECT i.ext_id || ' / ' || c.variant AS answer, c.text, c.metadata FROM candidates c JOIN items i ON i.id = c.item_id
       WHERE i.dataset_id = ? ORDER BY i.position, c.id`,
    ),
    labels: rows(
      `SELECT ${key} AS target, a.name, a.kind, l.verdict, l.note, l.seconds, l.evidence, l.guidelines_version FROM labels l
       JOIN annotators a ON a.id = l.annotator_id JOIN targets t ON t.id = l.target_id
       JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND l.verdict IS NOT NULL AND u.superseded_by IS NULL AND u.deleted_at IS NULL
       ORDER BY target, a.name`,
    ),
    gold: rows(
      `SELECT ${key} AS target, g.verdict, g.source FROM gold g JOIN targets t ON t.id = g.target_id
       JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? ORDER BY target`,
    ),
    controls: rows(
      `SELECT ${key} AS target, k.verdict FROM controls k JOIN targets t ON t.id = k.target_id
       JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
       WHERE k.dataset_id = ? ORDER BY target`,
    ),
  }
}

/** A reply with every id left out (ids differ between workspaces; names tell people apart). */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'annotatorId' && k !== 'datasetId' && k !== 'id')
      .map(([k, v]) => [k, withoutIds(v)]),
  )
}
