// demo/ loads the bundled WikiEval demo into an empty workspace, so a first start has data to show.
import { z } from 'zod'
import demoJson from '../../../resources/demo/wikieval-demo.json'
import { FAAF_SCHEMA } from '../../shared/labelSchemas'
import type { Workspace } from '../app/workspace'
import { recordImportOrigin } from '../export/datasetOrigin'
import { visibleDatasetCount } from '../import/hidden'
import { ensureAnnotator } from '../store/repos/annotators'
import { createDataset } from '../store/repos/datasets'
import { loadDemoRuns } from './demoRuns'

const VARIANTS = ['answer', 'ungrounded_answer', 'poor_answer'] as const
const Variant = z.enum(VARIANTS)

const DemoFile = z.object({
  name: z.string(),
  annotators: z.tuple([z.string(), z.string()]),
  items: z.array(
    z.object({
      id: z.string(),
      question: z.string(),
      answer: z.string(),
      ungrounded_answer: z.string(),
      poor_answer: z.string(),
      facts: z.array(z.string()).min(1),
      support: z.record(Variant, z.array(z.number().int())),
    }),
  ),
  disagreements: z.array(
    z.object({
      item: z.string(),
      variant: Variant,
      fact: z.number().int(),
      annotator: z.string(),
      verdict: z.string(),
    }),
  ),
})

/** Items the second annotator has labelled so far: the demo shows a team part-way through. */
const SECOND_ANNOTATOR_ITEMS = 9

/**
 * Loads the bundled WikiEval-style demo (written for FactLab, not taken from any dataset) so a
 * newcomer sees a working workbench. Does nothing when the workspace already has a dataset.
 */
export function loadDemoIfEmpty(ws: Workspace): { loaded: boolean; datasetId?: number } {
  if (visibleDatasetCount(ws.db) > 0) return { loaded: false }
  const demo = DemoFile.parse(demoJson)
  const datasetId = ws.db.transaction(() => {
    const ds = createDataset(ws.db, {
      name: demo.name,
      labelSchema: FAAF_SCHEMA,
      source: { preset: 'demo', importedAt: new Date().toISOString() },
    })
    const [first, second] = demo.annotators.map((name) => ensureAnnotator(ws.db, name))
    const override = new Map(
      demo.disagreements.map((d) => [`${d.item}|${d.variant}|${d.fact}|${d.annotator}`, d.verdict]),
    )
    demo.items.forEach((it, position) => {
      const itemId = ws.content.insertItem(
        ds.id,
        { extId: it.id, question: it.question, reference: it.answer, metadata: { source: 'factlab-demo' } },
        position,
      )
      const candidateIds = Object.fromEntries(
        VARIANTS.map((variant) => [
          variant,
          ws.content.insertCandidate(itemId, { variant, text: it[variant] }),
        ]),
      ) as Record<(typeof VARIANTS)[number], number>
      const factIds = it.facts.map((text, i) =>
        ws.content.insertUnit(itemId, { kind: 'fact', text, position: i }),
      )
      for (const variant of VARIANTS) {
        const supported = new Set(it.support[variant] ?? [])
        factIds.forEach((unitId, i) => {
          const targetId = ws.content.targetId(unitId, candidateIds[variant])
          if (targetId === null) return
          const base = supported.has(i) ? 'true' : 'false'
          for (const annotator of position < SECOND_ANNOTATOR_ITEMS ? [first!, second!] : [first!]) {
            const verdict = override.get(`${it.id}|${variant}|${i}|${annotator.name}`) ?? base
            ws.labels.save(
              { targetId, annotatorId: annotator.id, verdict, seconds: 6 + ((i * 7) % 11) },
              'import',
            )
          }
        })
      }
    })
    recordImportOrigin(ws.db, ds.id)
    loadDemoRuns(ws.db, ds.id)
    return ds.id
  })()
  return { loaded: true, datasetId }
}
