import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { toJsonReport } from '../../src/main/reports'
import { costErrorChart } from '../../src/shared/charts'
import { cli } from '../helpers/cli'
import { demoWorkspaceIn } from '../helpers/demoWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

function demo(): { file: string; dataset: string; candidateId: number } {
  const file = demoWorkspaceIn(tmp())
  const ws = Workspace.open(file)
  const dataset = (ws.db.prepare('SELECT name FROM datasets').get() as { name: string }).name
  const candidateId = (ws.db.prepare('SELECT id FROM candidates LIMIT 1').get() as { id: number }).id
  ws.close()
  return { file, dataset, candidateId }
}

describe('loose ends', () => {
  it('judges.candidateVerdicts refuses a candidate of a dataset still being imported', async () => {
    const { file, candidateId } = demo()
    const ok = await cli([
      'call',
      'judges.candidateVerdicts',
      JSON.stringify({ candidateId }),
      '--workspace',
      file,
    ])
    expect(ok.code, ok.err).toBe(0)
    expect((JSON.parse(ok.out) as unknown[]).length).toBeGreaterThan(0)
    const ws = Workspace.open(file)
    ws.db.prepare("UPDATE datasets SET state = 'importing'").run()
    ws.close()
    const refused = await cli([
      'call',
      'judges.candidateVerdicts',
      JSON.stringify({ candidateId }),
      '--workspace',
      file,
    ])
    expect(refused.code).not.toBe(0)
    expect(refused.err).toContain(`No candidate with id ${candidateId}`)
  })

  it('--charts png puts PNG images in an HTML report; svg (and the default) inline SVG', async () => {
    const { file, dataset } = demo()
    const dir = tmp()
    const png = join(dir, 'png.html')
    const r = await cli([
      'metrics',
      '--workspace',
      file,
      '--dataset',
      dataset,
      '--format',
      'html',
      '--out',
      png,
      '--charts',
      'png',
    ])
    expect(r.code, r.err).toBe(0)
    const page = readFileSync(png, 'utf8')
    expect(page.match(/<img alt="[^"]+" src="data:image\/png;base64,/g)).toHaveLength(2)
    expect(page).not.toContain('<svg')
    const svg = join(dir, 'svg.html')
    expect(
      (await cli(['metrics', '--workspace', file, '--dataset', dataset, '--format', 'html', '--out', svg]))
        .code,
    ).toBe(0)
    expect(readFileSync(svg, 'utf8')).toContain('<svg')
    expect(readFileSync(svg, 'utf8')).not.toContain('data:image/png')
  })

  it('a cost axis where every run is free says so instead of spanning $0–$1', () => {
    const { file } = demo()
    const ws = Workspace.open(file)
    const datasetId = (ws.db.prepare('SELECT id FROM datasets').get() as { id: number }).id
    const paid = computeDatasetMetrics(ws.db, datasetId)
    const paidChart = costErrorChart(toJsonReport(paid)).svg
    expect(paidChart).not.toContain('all runs free')
    expect(paidChart).toMatch(/>\$[\d.]+</)
    ws.db.prepare('UPDATE run_calls SET cost = 0').run()
    const free = computeDatasetMetrics(ws.db, datasetId)
    expect(free.judges.every((j) => j.cost === 0)).toBe(true)
    const chart = costErrorChart(toJsonReport(free)).svg
    expect(chart).toContain('all runs free')
    // No $0–$1 tick labels on the axis (hover titles still give each run's $0.0000).
    expect(chart).not.toMatch(/>\$[\d.]+</)
    ws.close()
  })
})
