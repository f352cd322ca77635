import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openAnnotateView } from '../../src/main/annotate/view'
import { Workspace } from '../../src/main/app/workspace'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { keepUnchanged } from '../../src/renderer/src/actions/keepUnchanged'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { seedBulk } from './bulk'

function twoViews() {
  const dir = mkdtempSync(join(tmpdir(), 'factlab-keep-'))
  const ws = Workspace.open(freshWorkspaceFile(join(dir, 'w.factlab')))
  const datasetId = seedBulk(ws, 2)
  const me = ensureAnnotator(ws.db, 'me')
  const before = openAnnotateView(ws.db, { datasetId, annotatorId: me.id, blind: true })
  const after = structuredClone(before)
  ws.close()
  rmSync(dir, { recursive: true, force: true })
  return { before, after }
}

describe('keepUnchanged', () => {
  it('reuses the old unit objects that did not change and takes the changed one', () => {
    const { before, after } = twoViews()
    expect(before.targets.length).toBeGreaterThan(2)
    after.targets[1] = { ...after.targets[1]!, judges: [] }
    const merged = keepUnchanged(before, after)
    expect(merged.targets[0]).toBe(before.targets[0])
    expect(merged.targets[2]).toBe(before.targets[2])
    expect(merged.targets[1]).toBe(after.targets[1])
    expect(merged.targets[1]?.judges).toEqual([])
  })

  it('takes everything but the reused units from the refreshed view', () => {
    const { before, after } = twoViews()
    after.hiddenJudgeVerdicts = before.hiddenJudgeVerdicts + 3
    const merged = keepUnchanged(before, after)
    expect(merged.hiddenJudgeVerdicts).toBe(before.hiddenJudgeVerdicts + 3)
    expect(merged.targets.map((t) => t.targetId)).toEqual(after.targets.map((t) => t.targetId))
  })
})
