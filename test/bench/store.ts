import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Workspace } from '../../src/main/app/workspace'
import { nextUnlabelledTarget } from '../../src/main/labels/labels'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

/** Save a label (synchronous=FULL, history row) and find the next unlabelled target: bar p99 < 5 ms. */
export async function benchLabelStore(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-'))
  const ws = Workspace.open(join(dir, 'bench.factlab'))
  const items = Number(process.env.FACTLAB_BENCH_LABEL_ITEMS ?? 20_000)
  const ds = createDataset(ws.db, { name: 'bench', labelSchema: FAAF_SCHEMA })
  ws.db.transaction(() => {
    for (let i = 0; i < items; i++) {
      const item = ws.content.insertItem(
        ds.id,
        { extId: `i${i}`, question: 'q', reference: 'r'.repeat(200) },
        i,
      )
      for (const v of ['answer', 'ungrounded_answer', 'poor_answer'])
        ws.content.insertCandidate(item, { variant: v, text: 'c' })
      for (let f = 0; f < 6; f++) ws.content.insertUnit(item, { kind: 'fact', text: `fact ${f}` })
    }
  })()
  const annotator = ensureAnnotator(ws.db, 'bench')
  const total: number[] = []
  const save: number[] = []
  let target = nextUnlabelledTarget(ws.db, ds.id, annotator.id)
  for (let i = 0; i < 2000 && target !== null; i++) {
    const t0 = performance.now()
    ws.labels.save({
      targetId: target,
      annotatorId: annotator.id,
      verdict: i % 3 === 0 ? 'false' : 'true',
      seconds: 1,
    })
    const t1 = performance.now()
    target = nextUnlabelledTarget(ws.db, ds.id, annotator.id, target)
    total.push(performance.now() - t0)
    save.push(t1 - t0)
  }
  total.sort((a, b) => a - b)
  save.sort((a, b) => a - b)
  const p99 = percentile(total, 99)
  const ms = (n: number) => `${n.toFixed(2)} ms`
  process.stdout.write(
    `label save + next unlabelled over ${items * 18} targets: p50 ${ms(percentile(total, 50))}, p99 ${ms(p99)}` +
      ` (durable save alone: p50 ${ms(percentile(save, 50))}, p99 ${ms(percentile(save, 99))});` +
      ` p99 / 5 ms bar = ${(p99 / 5).toFixed(2)} (at most 1 meets the bar)\n`,
  )
  ws.close()
  rmSync(dir, { recursive: true, force: true })
}
