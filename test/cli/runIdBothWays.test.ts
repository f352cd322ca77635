import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { EnvKeyStore } from '../../src/main/providers/keys'
import { BUILTIN_REGISTRY } from '../../src/main/runs/builtin'
import { createRuns } from '../../src/main/runs/create'
import { RunEngine } from '../../src/main/runs/engine'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { makeWorkspace } from '../runs/helpers'

const dir = tmpDirs()
let file = ''
let runId = 0

beforeEach(async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 2, 2)
  ;[runId] = createRuns(ws.db, {
    datasetId,
    provider: 'lexical',
    model: 'rougeL',
    baseUrl: null,
    method: 'lexical',
    settings: { lexicalThreshold: 0.5 },
  }) as [number]
  await new RunEngine({ db: ws.db, registry: BUILTIN_REGISTRY, keys: new EnvKeyStore({}) }).start(runId)
  file = ws.file
  ws.close()
})

describe('a run named either way', () => {
  it('judge status takes the run as an argument or as --run, and says the same', async () => {
    const a = await cli(['judge', 'status', String(runId), '--workspace', file])
    const b = await cli(['judge', 'status', '--run', String(runId), '--workspace', file])
    expect(a.code, a.err).toBe(0)
    expect(b.code, b.err).toBe(0)
    expect(b.out).toBe(a.out)
    expect(a.out).toContain(`run ${runId}: done`)
  })

  it('export-verdicts takes the run as an argument or as --run', async () => {
    for (const [i, args] of [[String(runId)], ['--run', String(runId)]].entries()) {
      const out = join(dir(), `v${i}.jsonl`)
      const r = await cli(['export-verdicts', ...args, '--out', out, '--workspace', file])
      expect(r.code, r.err).toBe(0)
      expect(existsSync(out)).toBe(true)
    }
  })

  it('judge resume takes --run too; a missing run or two different runs are refused plainly', async () => {
    const resumed = await cli(['judge', 'resume', '--run', String(runId), '--workspace', file])
    expect(resumed.code, resumed.err).toBe(0)
    const none = await cli(['judge', 'status', '--workspace', file])
    expect(none.code).not.toBe(0)
    expect(none.err).toContain('Which run? Name it: factlab judge status 3, or factlab judge status --run 3')
    const x = join(dir(), 'x.jsonl')
    const two = await cli(['export-verdicts', String(runId), '--run', '99', '--out', x, '--workspace', file])
    expect(two.code).not.toBe(0)
    expect(two.err).toContain(`Two runs given (${runId} and --run 99); name one`)
    expect(existsSync(x)).toBe(false)
  })

  it('judge improve takes the run as an argument as well as --run', async () => {
    const r = await cli(['judge', 'improve', String(runId), '--workspace', file])
    // The lexical run is not a DCR run: refused by name, which proves the argument was read.
    expect(r.err).toContain(`Run ${runId} is a lexical run, not dcr`)
  })
})
