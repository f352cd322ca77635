import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { svgToPng, toJsonReport } from '../../src/main/reports'
import { chartFonts, rasterise } from '../../src/main/reports/png'
import { reportCharts } from '../../src/shared/charts'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from '../metrics/fixture'

const tmp = tmpDirs()

/** Width and height from a PNG's header, or an error naming what is wrong with it. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  expect([...bytes.subarray(0, 8)]).toEqual(signature)
  expect(Buffer.from(bytes.subarray(12, 16)).toString('latin1')).toBe('IHDR')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return { width: view.getUint32(16), height: view.getUint32(20) }
}

function darkPixels(rgba: Uint8Array): number {
  let n = 0
  for (let i = 0; i < rgba.length; i += 4) if (rgba[i]! < 128 && rgba[i + 3]! > 0) n++
  return n
}

function workspace(): { dir: string; file: string } {
  const dir = tmp()
  const fx = makeFixture(dir, { items: 2, variants: ['answer', 'poor'], facts: 2 })
  fx.labelAll('ana', ['true', 'false', 'true', 'false', 'true', 'true', 'false', 'false'])
  fx.run('gpt-x', ['true', 'true', 'true', 'false', 'true', 'false', 'false', 'false'], {
    calls: [{ promptTokens: 300, completionTokens: 20, cost: 0.001, latencyMs: 200 }],
  })
  fx.run('lexical', ['true', 'true', 'true', 'true', 'true', 'true', 'true', 'true'])
  fx.db.close()
  return { dir, file: join(dir, 'w.factlab') }
}

describe('charts as PNG', () => {
  it('decode as PNG at twice the size of the SVG', async () => {
    const fx = makeFixture(tmp(), { items: 1, variants: ['answer'], facts: 2 })
    fx.labelAll('ana', ['true', 'false'])
    fx.run('m', ['true', 'true'])
    const charts = reportCharts(toJsonReport(computeDatasetMetrics(fx.db, fx.datasetId)))
    expect(charts).toHaveLength(2)
    for (const c of charts)
      expect(pngSize(await svgToPng(c.svg))).toEqual({ width: 2 * c.width, height: 2 * c.height })
  })

  it('draw the text of a chart, which a renderer without the bundled font would drop', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="40" font-family="sans-serif" font-size="13"><text x="8" y="24">Error rate by variant ≥ κ</text></svg>'
    const bare = await rasterise(svg, [])
    const shipped = await svgToPng(svg)
    expect(darkPixels(bare.pixels)).toBe(0)
    // What svgToPng writes is the rendering with the font, and that one has ink on it.
    const withFont = await rasterise(svg, chartFonts())
    expect(Buffer.from(shipped).equals(Buffer.from(withFont.png))).toBe(true)
    expect(darkPixels(withFont.pixels)).toBeGreaterThan(100)
  })
})

describe('factlab metrics --format md', () => {
  it('writes both charts as SVG and PNG beside the report by default', async () => {
    const { dir, file } = workspace()
    const out = join(dir, 'reports', 'R.md')
    const r = await cli(['metrics', '--workspace', file, '--dataset', 'demo', '--format', 'md', '--out', out])
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    for (const chart of ['R-by-variant', 'R-cost-error']) {
      const svg = readFileSync(join(dir, 'reports', `${chart}.svg`), 'utf8')
      expect(svg).toMatch(/^<svg/)
      const height = Number(/height="(\d+(?:\.\d+)?)"/.exec(svg)?.[1])
      expect(pngSize(readFileSync(join(dir, 'reports', `${chart}.png`))).height).toBe(2 * height)
    }
    expect(readFileSync(out, 'utf8')).toContain('![Error rate by variant](R-by-variant.svg)')
  })

  it('writes only the kind --charts asks for, and the report points at it', async () => {
    const { dir, file } = workspace()
    const png = join(dir, 'png', 'R.md')
    expect(
      (
        await cli([
          'metrics',
          '--workspace',
          file,
          '--dataset',
          'demo',
          '--format',
          'md',
          '--out',
          png,
          '--charts',
          'png',
        ])
      ).code,
    ).toBe(0)
    expect(existsSync(join(dir, 'png', 'R-by-variant.svg'))).toBe(false)
    expect(readFileSync(png, 'utf8')).toContain('![Cost against error rate](R-cost-error.png)')
    const svg = join(dir, 'svg', 'R.md')
    expect(
      (
        await cli([
          'metrics',
          '--workspace',
          file,
          '--dataset',
          'demo',
          '--format',
          'md',
          '--out',
          svg,
          '--charts',
          'svg',
        ])
      ).code,
    ).toBe(0)
    expect(existsSync(join(dir, 'svg', 'R-by-variant.svg'))).toBe(true)
    expect(existsSync(join(dir, 'svg', 'R-by-variant.png'))).toBe(false)
  })

  it('refuses an unknown chart kind before writing anything', async () => {
    const { dir, file } = workspace()
    const out = join(dir, 'bad', 'R.md')
    const r = await cli([
      'metrics',
      '--workspace',
      file,
      '--dataset',
      'demo',
      '--format',
      'md',
      '--out',
      out,
      '--charts',
      'gif',
    ])
    expect(r.code).toBe(2)
    expect(r.err).toContain('--charts must be one of svg, png, both, got "gif"')
    expect(existsSync(join(dir, 'bad'))).toBe(false)
  })

  it('documents --charts in its help', async () => {
    const r = await cli(['metrics', '--help'])
    expect(r.out).toMatch(/--charts <kind>.*svg, png or both/s)
  })
})
