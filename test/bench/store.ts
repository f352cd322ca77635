import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Workspace } from '../../src/main/app/workspace'
import { nextUnlabelledTarget } from '../../src/main/labels/labels'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { figure, info, percentile } from './record'

/** Save a label (synchronous=FULL, history row) and find the next unlabelled target: bar p99 ≤ 5 ms for the next. */
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
  const next: number[] = []
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
    const t2 = performance.now()
    total.push(t2 - t0)
    next.push(t2 - t1)
    save.push(t1 - t0)
  }
  total.sort((a, b) => a - b)
  save.sort((a, b) => a - b)
  next.sort((a, b) => a - b)
  figure(`next unlabelled over ${items * 18} targets, p99`, percentile(next, 99), 'ms', 5)
  info('durable label save (synchronous=FULL), p99', percentile(save, 99), 'ms', 'an fsync: the disk sets it')
  info('save + next, p50', percentile(total, 50), 'ms')
  info('save + next, p99', percentile(total, 99), 'ms')
  ws.close()
  rmSync(dir, { recursive: true, force: true })
}
