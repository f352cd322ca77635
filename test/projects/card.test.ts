import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { exportDataset } from '../../src/main/export'
import { seedWorkspace } from '../annotate/fixture'
import { rpcOn } from '../helpers/app'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('the dataset card of an annotation project', () => {
  it('lists k, the policy, the guidelines version and each annotator’s control accuracy', async () => {
    const dir = tmp()
    const { ctx, ds, ana, ben, items } = seedWorkspace(dir)
    const rpc = rpcOn(ctx)
    await rpc.value('projects.setPlan', { datasetId: ds.id, k: 2, policy: 'open' })
    await rpc.value('projects.saveGuidelines', { datasetId: ds.id, body: 'Rules.' })
    const [c1, c2] = items[2]!.targets.answer!
    await rpc.value('projects.setControls', {
      datasetId: ds.id,
      answers: [
        { targetId: c1, verdict: 'true' },
        { targetId: c2, verdict: 'false' },
      ],
    })
    await rpc.value('annotate.save', { targetId: c1, annotatorId: ana.id, verdict: 'true' })
    await rpc.value('annotate.save', { targetId: c2, annotatorId: ana.id, verdict: 'true' })
    await rpc.value('annotate.save', { targetId: c1, annotatorId: ben.id, verdict: 'true', seconds: 4.5 })
    const out = join(dir, 'out')
    await exportDataset(ctx.workspace, { datasetId: ds.id, format: 'jsonl', outDir: out })
    const card = readFileSync(join(out, 'README.md'), 'utf8')
    expect(card).toContain('## Annotation project')
    expect(card).toMatch(/k = 2 distinct annotators per target; assignment: open/)
    expect(card).toMatch(/guidelines version: 1/)
    // Two answers are too few to read a rate from: the card says so beside it.
    expect(card).toMatch(/\| ana \| 2 \| 1 \| 50\.0% · too few targets \(n=2\) \|/)
    expect(card).toMatch(/\| ben \| 1 \| 1 \| 100\.0% · too few targets \(n=1\) \|/)
    // Each row carries the active time and the guidelines version of every label on it.
    const rows = readFileSync(join(out, 'data.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string | null>)
    const row = rows.find((r) => r.active_seconds?.includes('"ben"'))!
    expect(JSON.parse(row.active_seconds!)).toEqual({ ana: 0, ben: 4.5 })
    expect(JSON.parse(row.guidelines_version!)).toEqual({ ana: 1, ben: 1 })
    ctx.close()
  })
})
