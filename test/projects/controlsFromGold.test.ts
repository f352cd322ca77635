import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { importFile } from '../../src/main/import'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const WIKIEVALFACTS = join(__dirname, '../fixtures/import/wikievalfacts.csv')

interface SetReply {
  added: number
  controls: number
  targets: number
  toLabel: number
  preview: boolean
}

/** WikiEvalFacts as released: 27 targets, 25 of them with the release's own labels. */
async function released() {
  const file = freshWorkspaceFile(join(tmp(), 'lead.factlab'))
  const ws = Workspace.open(file)
  const r = await importFile(ws, { file: WIKIEVALFACTS })
  const unlabelled = ws.db
    .prepare(
      `SELECT t.id FROM targets t WHERE t.dataset_id = ? AND NOT EXISTS (
         SELECT 1 FROM labels l WHERE l.target_id = t.id AND l.verdict IS NOT NULL) ORDER BY t.id`,
    )
    .pluck()
    .all(r.datasetId) as number[]
  ws.close()
  return { file, datasetId: r.datasetId, unlabelled }
}

describe('controls drawn from gold answers are a sample, never the whole project unasked', () => {
  const app = testApps()

  it('by default a tenth of the targets become controls, and the reply says what is left to label', async () => {
    const { file, datasetId } = await released()
    const lead = app(file)
    const preview = await lead.value<SetReply>('projects.setControls', {
      datasetId,
      allGold: true,
      preview: true,
    })
    expect(preview).toMatchObject({ added: 3, controls: 3, targets: 27, toLabel: 24, preview: true })
    // A preview changes nothing.
    expect(await lead.value<unknown[]>('projects.controls', { datasetId })).toHaveLength(0)
    const r = await lead.value<SetReply>('projects.setControls', { datasetId, allGold: true })
    expect(r).toMatchObject({ added: 3, controls: 3, toLabel: 24, preview: false })
    const d = await lead.value<{ targets: number }>('projects.dashboard', { datasetId })
    expect(d.targets).toBe(24)
  })

  it('the lead may ask for a count; the same seed draws the same controls', async () => {
    const a = await released()
    const b = await released()
    const ids = async (file: string, datasetId: number) => {
      const lead = app(file)
      await lead.value('projects.setControls', { datasetId, allGold: true, sample: { count: 5 } })
      return (await lead.value<{ targetId: number }[]>('projects.controls', { datasetId })).map(
        (c) => c.targetId,
      )
    }
    const first = await ids(a.file, a.datasetId)
    expect(first).toHaveLength(5)
    expect(await ids(b.file, b.datasetId)).toEqual(first)
  })

  it('refuses to make every target a control unless confirmed, then the dashboard has nothing to label', async () => {
    const { file, datasetId, unlabelled } = await released()
    const lead = app(file)
    await lead.value('projects.setControls', {
      datasetId,
      answers: unlabelled.map((targetId) => ({ targetId, verdict: 'true' })),
    })
    const all = { datasetId, allGold: true, sample: { share: 1 } }
    const refused = await lead.call('projects.setControls', all)
    expect(refused.ok).toBe(false)
    expect(JSON.stringify(refused)).toContain(
      'this would make all 27 targets controls and leave nothing to label',
    )
    expect(await lead.value<unknown[]>('projects.controls', { datasetId })).toHaveLength(unlabelled.length)
    const preview = await lead.value<SetReply>('projects.setControls', { ...all, preview: true })
    expect(preview).toMatchObject({ toLabel: 0, targets: 27 })
    const done = await lead.value<SetReply>('projects.setControls', { ...all, everyTarget: true })
    expect(done).toMatchObject({ controls: 27, toLabel: 0 })
  })

  it('on the command line, --from-gold draws a sample and every target needs --every-target', async () => {
    const { file, unlabelled } = await released()
    const on = ['--workspace', file, '--dataset', '1']
    const set = await cli(['controls', 'set', ...on, '--from-gold'])
    expect(set.err).toBe('')
    expect(set.out).toContain('3 marked; 3 controls in all')
    expect(set.out).toContain('24 of 27 targets left to label')
    // Again: the same seeded draw, nothing new to mark, and the reply says so rather than "3 marked".
    const again = await cli(['controls', 'set', ...on, '--from-gold'])
    expect(again.err).toBe('')
    expect(again.out).toContain('none newly marked (3 already were); 3 controls in all')
    expect(unlabelled.length).toBeGreaterThan(0)
    const lines = unlabelled.map((t) => `--line=${t},true`)
    expect((await cli(['controls', 'set', ...on, ...lines])).err).toBe('')
    const every = await cli(['controls', 'set', ...on, '--from-gold', '--share', '1'])
    expect(every.code).toBe(1)
    expect(every.err).toContain('leave nothing to label')
    expect(every.err).toContain('--every-target')
    const forced = await cli(['controls', 'set', ...on, '--from-gold', '--share', '1', '--every-target'])
    expect(forced.err).toBe('')
    expect(forced.out).toContain('Every one of the 27 targets is a control: nothing is left to label')
    const typo = await cli(['controls', 'set', ...on, '--from-gold', '--count', 'ten'])
    expect(typo.code).toBe(2)
  })

  it('--count 20 on 27 targets says it made most of the dataset controls, and how to undo it', async () => {
    const { file } = await released()
    const on = ['--workspace', file, '--dataset', '1']
    const small = await cli(['controls', 'set', ...on, '--from-gold', '--count', '3'])
    expect(small.err).toBe('')
    expect(small.out).toContain('3 marked; 3 controls in all, of 27 targets (11%)')
    expect(small.out).not.toContain('More than half')
    const big = await cli(['controls', 'set', ...on, '--from-gold', '--count', '20'])
    expect(big.err).toBe('')
    expect(big.out).toContain('20 controls in all, of 27 targets (74%)')
    expect(big.out).toContain('7 of 27 targets left to label')
    expect(big.out).toContain('More than half the targets are now controls: --count counts targets')
    expect(big.out).toContain('factlab controls clear --all --dataset 1')
  })
})
