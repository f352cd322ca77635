import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { exportBundle, exportDataset, mergeBundle } from '../../src/main/export'
import { importFile } from '../../src/main/import'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { tmpDirs } from '../helpers/tmp'
import { writeReleaseCsv, wsFile } from './seed'

/**
 * Another process (a CLI `label --file`, a second window) may commit while an export runs. Its
 * label lands here right after the export has counted its rows: the export must describe the
 * workspace as of one moment, before that label or after it, never half and half.
 */
const between = vi.hoisted(() => {
  const hook = { commit: null as (() => void) | null }
  /** `read` as it is, then the other process's commit, if one is waiting. */
  const thenCommit =
    <A extends unknown[], R>(read: (...args: A) => R) =>
    (...args: A): R => {
      const result = read(...args)
      hook.commit?.()
      return result
    }
  return Object.assign(hook, { thenCommit })
})

vi.mock('../../src/main/labels/bundleReads', async (original) => {
  const real = await original<typeof import('../../src/main/labels/bundleReads')>()
  return { ...real, bundleLabelCount: between.thenCommit(real.bundleLabelCount) }
})

vi.mock('../../src/main/export/targetRows', async (original) => {
  const real = await original<typeof import('../../src/main/export/targetRows')>()
  return { ...real, annotatorColumns: between.thenCommit(real.annotatorColumns) }
})

const tmp = tmpDirs()
afterEach(() => {
  between.commit = null
})

async function workspace(dir: string, name: string) {
  const file = join(dir, 'release.csv')
  writeReleaseCsv(file)
  const ws = Workspace.open(wsFile(dir, name))
  const { datasetId } = await importFile(ws, { file, preset: 'wikievalfacts', datasetName: 'wef' })
  const targets = ws.db
    .prepare('SELECT id FROM targets WHERE dataset_id = ? ORDER BY id')
    .pluck()
    .all(datasetId) as number[]
  return { ws, datasetId, targets }
}

/** A second connection to the same file, as another process has, labelling one target once. */
function otherProcessLabels(path: string, targetId: number, annotator: string): () => void {
  return () => {
    between.commit = null
    const other = Workspace.open(path)
    try {
      const who = ensureAnnotator(other.db, annotator)
      other.labels.save({ targetId, annotatorId: who.id, verdict: 'false' })
    } finally {
      other.close()
    }
  }
}

describe('an export while another process commits', () => {
  it('writes a bundle whose announced count is the labels it holds, and that merges', async () => {
    const dir = tmp()
    const a = await workspace(dir, 'a.factlab')
    const cleo = ensureAnnotator(a.ws.db, 'cleo')
    a.ws.labels.save({ targetId: a.targets[0]!, annotatorId: cleo.id, verdict: 'true' })
    a.ws.labels.save({ targetId: a.targets[1]!, annotatorId: cleo.id, verdict: 'true' })
    between.commit = otherProcessLabels(wsFile(dir, 'a.factlab'), a.targets[2]!, 'cleo')
    const out = join(dir, 'cleo.bundle.jsonl')
    const bundle = await exportBundle(a.ws, { datasetId: a.datasetId, annotatorId: cleo.id, out })

    // The other process's label is saved, and the bundle is the workspace before it.
    expect(a.ws.db.prepare('SELECT COUNT(*) FROM labels WHERE annotator_id = ?').pluck().get(cleo.id)).toBe(3)
    const lines = readFileSync(out, 'utf8').trim().split('\n')
    expect(JSON.parse(lines[0]!).labels).toBe(2)
    expect(lines.length - 1).toBe(2)
    expect(bundle.labels).toBe(2)

    const b = await workspace(dir, 'b.factlab')
    const report = await mergeBundle(b.ws, out)
    expect(report.added).toBe(2)
    a.ws.close()
    b.ws.close()
  })

  it('writes a dataset as of the moment it began, its card included', async () => {
    const dir = tmp()
    const a = await workspace(dir, 'a.factlab')
    const cleo = ensureAnnotator(a.ws.db, 'cleo')
    a.ws.labels.save({ targetId: a.targets[0]!, annotatorId: cleo.id, verdict: 'true' })
    between.commit = otherProcessLabels(wsFile(dir, 'a.factlab'), a.targets[1]!, 'cleo')
    const outDir = join(dir, 'out')
    await exportDataset(a.ws, { datasetId: a.datasetId, format: 'jsonl', outDir })

    const rows = readFileSync(join(outDir, 'data.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    const cleoColumn = Object.keys(rows[0]!).find((k) => k.includes('cleo'))
    const labelled = rows.filter((r) => cleoColumn && r[cleoColumn] !== null && r[cleoColumn] !== undefined)
    const card = readFileSync(join(outDir, 'README.md'), 'utf8')
    expect(labelled.length).toBe(1)
    expect(card).toMatch(new RegExp(`\\| cleo \\| \`${cleoColumn}\` \\| 1 \\|`))
    a.ws.close()
  })
})
