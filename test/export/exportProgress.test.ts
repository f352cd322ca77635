import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { exportProgressPrinter } from '../../src/main/cli/progressLine'
import { countingTally, throttled } from '../../src/main/export/exportProgress'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { seedWorkspace, wsFile } from './seed'

const tmp = tmpDirs()

const exportArgs = (file: string, out: string, format = 'csv') => [
  'export',
  '--workspace',
  file,
  '--dataset',
  'wikievalfacts',
  '--format',
  format,
  '--out',
  out,
]

describe('export progress', () => {
  it('factlab export --progress says on stderr how many targets are written, ending at the total', async () => {
    const dir = tmp()
    const { ws, targets } = seedWorkspace(wsFile(dir))
    ws.close()
    const n = targets.length.toLocaleString('en')
    for (const format of ['csv', 'parquet']) {
      const r = await cli([...exportArgs(wsFile(dir), join(dir, format), format), '--progress', '--json'])
      expect(r.code).toBe(0)
      const lines = r.err.trim().split('\n')
      expect(lines.at(-1)).toBe(`Exporting: ${n} of ${n} targets written (100%)`)
      // stdout stays the result alone, so `--json` output still parses.
      expect(JSON.parse(r.out).files).toHaveLength(2)
    }
  })

  it('prints nothing off a terminal without --progress, so scripts and logs stay as they were', async () => {
    const dir = tmp()
    seedWorkspace(wsFile(dir)).ws.close()
    const r = await cli([...exportArgs(wsFile(dir), join(dir, 'out')), '--json'])
    expect(r.code).toBe(0)
    expect(r.err).not.toContain('Exporting')
  })

  it('on a terminal rewrites one line and ends it; off one, logs a line per report', () => {
    const said: string[] = []
    const tty = exportProgressPrinter(
      { isTTY: true, write: (t) => said.push(t) },
      { progress: false, json: false },
    )
    tty?.(1000, 2500)
    tty?.(2500, 2500)
    expect(said).toEqual([
      '\rExporting: 1,000 of 2,500 targets written (40%)',
      '\rExporting: 2,500 of 2,500 targets written (100%)\n',
    ])
    expect(exportProgressPrinter({ isTTY: true, write: () => 0 }, { progress: false, json: true })).toBeNull()
    expect(exportProgressPrinter({ write: () => 0 }, { progress: false, json: false })).toBeNull()
    const log: string[] = []
    exportProgressPrinter({ write: (t) => log.push(t) }, { progress: true, json: false })?.(5, 10)
    expect(log).toEqual(['Exporting: 5 of 10 targets written (50%)\n'])
  })

  it('counts every target through the card tally and reports each step and the last', () => {
    const seen: number[] = []
    let tallied = 0
    const tally = countingTally({ target: () => void tallied++ }, 2500, (done) => seen.push(done))
    for (let k = 0; k < 2500; k++) tally.target([], [], [], false)
    expect(tallied).toBe(2500)
    expect(seen).toEqual([1000, 2000, 2500])
  })

  it('passes at most one report per interval, but always the first and the last', () => {
    let clock = 0
    const seen: number[] = []
    const report = throttled(
      (done) => seen.push(done),
      250,
      () => clock,
    )
    report(1, 10, 'rows')
    report(2, 10, 'rows')
    clock = 249
    report(3, 10, 'rows')
    clock = 250
    report(4, 10, 'rows')
    report(10, 10, 'rows')
    expect(seen).toEqual([1, 4, 10])
  })
})
