import { Readable } from 'node:stream'
import { describe, expect, it, vi } from 'vitest'
import { cli } from '../helpers/cli'
import { countIn as count, demoWorkspaceIn } from '../helpers/demoWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const DEMO = 'Demo: WikiEval-style'

const demoWorkspace = () => demoWorkspaceIn(tmp())

interface Target {
  targetId: number
  candidateId: number
  text: string
  mine: { verdict: string | null; note: string | null } | null
}
interface View {
  candidates: { id: number; variant: string }[]
  targets: Target[]
}

describe('factlab call: any contract call from a script', () => {
  it('labels a target through annotate.save and reads it back through annotate.open and label', async () => {
    const file = demoWorkspace()
    const open = await cli([
      'call',
      'annotate.open',
      '{"datasetId":1}',
      '--workspace',
      file,
      '--annotator',
      'kim',
    ])
    expect(open.code).toBe(0)
    const view = JSON.parse(open.out) as View
    const target = view.targets[0]!
    expect(target.mine).toBeNull()

    const save = await cli([
      'call',
      'annotate.save',
      JSON.stringify({ targetId: target.targetId, verdict: 'false', note: 'not in the answer' }),
      '--workspace',
      file,
      '--annotator',
      'kim',
    ])
    expect(save.code).toBe(0)
    expect(JSON.parse(save.out)).toMatchObject({ targetId: target.targetId, verdict: 'false' })

    const again = await cli([
      'call',
      'annotate.open',
      JSON.stringify({ datasetId: 1, targetId: target.targetId }),
      '--workspace',
      file,
      '--annotator',
      'kim',
    ])
    const reread = (JSON.parse(again.out) as View).targets.find((t) => t.targetId === target.targetId)
    expect(reread?.mine).toMatchObject({ verdict: 'false', note: 'not in the answer' })

    // The friendly command names the same target by unit text and variant, and changes it.
    const variant = view.candidates.find((c) => c.id === target.candidateId)!.variant
    const friendly = await cli([
      'label',
      '--workspace',
      file,
      '--dataset',
      DEMO,
      '--item',
      'demo-01',
      '--variant',
      variant,
      '--unit-text',
      target.text,
      '--verdict',
      'true',
      '--annotator',
      'kim',
      '--json',
    ])
    expect(friendly.code).toBe(0)
    expect(JSON.parse(friendly.out)).toMatchObject({ targetId: target.targetId, verdict: 'true', unit: 1 })
    // Both changes are in the history: nothing a person labelled is lost.
    expect(
      count(
        file,
        `SELECT COUNT(*) AS n FROM label_history h JOIN annotators a ON a.id = h.annotator_id WHERE a.name = 'kim'`,
      ),
    ).toBe(2)
  })

  it('reads its input from stdin with -', async () => {
    const file = demoWorkspace()
    const stdin = vi
      .spyOn(process, 'stdin', 'get')
      .mockReturnValue(Readable.from(['{"datasetId":1,', '"limit":3}']) as unknown as typeof process.stdin)
    try {
      const r = await cli(['call', 'datasets.items', '-', '--workspace', file])
      expect(r.code).toBe(0)
      expect((JSON.parse(r.out) as { total: number; rows: unknown[] }).rows).toHaveLength(3)
    } finally {
      stdin.mockRestore()
    }
  })

  it('starts a run from a saved judge config and returns once the run is done', async () => {
    const file = demoWorkspace()
    const config = await cli([
      'call',
      'judges.saveConfig',
      JSON.stringify({
        name: 'rouge-L',
        provider: 'lexical',
        model: 'rougeL',
        baseUrl: null,
        method: 'lexical',
        settings: { lexicalMetric: 'rougeL', lexicalThreshold: 0.3 },
      }),
      '--workspace',
      file,
    ])
    expect(config.code).toBe(0)
    const { id } = JSON.parse(config.out) as { id: number }
    const start = await cli([
      'call',
      'judges.start',
      JSON.stringify({ datasetId: 1, configId: id }),
      '--workspace',
      file,
    ])
    expect(start.code).toBe(0)
    const runs = await cli(['call', 'judges.runs', '{"datasetId":1}', '--workspace', file])
    const [run] = JSON.parse(runs.out) as { status: string; verdicts: number; total: number }[]
    expect(run?.status).toBe('done')
    expect(run?.verdicts).toBe(count(file, 'SELECT COUNT(*) AS n FROM targets'))
    // Driven by the CLI's own engine from the composition root, and the lease log says so.
    expect(
      count(file, "SELECT COUNT(*) AS n FROM run_lease_log WHERE event = 'claimed' AND driver = 'cli'"),
    ).toBe(1)
    expect(count(file, "SELECT COUNT(*) AS n FROM run_lease_log WHERE driver <> 'cli'")).toBe(0)
  })

  it('exits 2 on malformed JSON and on an unknown call, naming the problem', async () => {
    const file = demoWorkspace()
    const bad = await cli(['call', 'datasets.get', '{"datasetId":', '--workspace', file])
    expect(bad.code).toBe(2)
    expect(bad.err).toMatch(/not valid JSON/)
    const unknown = await cli(['call', 'datasets.explode', '{}', '--workspace', file])
    expect(unknown.code).toBe(2)
    expect(unknown.err).toMatch(/No call named "datasets.explode"/)
    expect(unknown.err).toMatch(/datasets.items/)
  })

  it('exits 1 on a contract refusal and changes nothing', async () => {
    const file = demoWorkspace()
    const before = count(file, 'SELECT COUNT(*) AS n FROM label_history')
    const target = count(file, 'SELECT MIN(id) AS n FROM targets')
    const r = await cli([
      'call',
      'annotate.save',
      JSON.stringify({ targetId: target, verdict: 'maybe' }),
      '--workspace',
      file,
      '--annotator',
      'alex',
    ])
    expect(r.code).toBe(1)
    // The message a person reads, without the code programs use (bad_input); the exit code says it.
    expect(r.err).toMatch(/^factlab: "maybe" is not one of/)
    expect(r.err).not.toMatch(/bad_input/)
    const missing = await cli(['call', 'datasets.get', '{"datasetId":"one"}', '--workspace', file])
    expect(missing.code).toBe(1)
    expect(missing.err).toMatch(/datasetId/)
    expect(count(file, 'SELECT COUNT(*) AS n FROM label_history')).toBe(before)
  })

  it('asks for --annotator when a call needs someone, and refuses UI-only calls with a pointer', async () => {
    const file = demoWorkspace()
    const who = await cli(['call', 'annotate.next', '{"datasetId":1}', '--workspace', file])
    expect(who.code).toBe(2)
    expect(who.err).toMatch(/--annotator/)
    const key = await cli([
      'call',
      'judges.setKey',
      '{"provider":"openai","key":"sk-x"}',
      '--workspace',
      file,
    ])
    expect(key.code).toBe(1)
    expect(key.err).toMatch(/OPENAI_API_KEY/)
  })

  it('lists every call with a description and an input JSON Schema', async () => {
    const r = await cli(['calls', '--json'])
    expect(r.code).toBe(0)
    const docs = JSON.parse(r.out) as {
      name: string
      description: string
      input: { properties?: object } | null
    }[]
    const save = docs.find((d) => d.name === 'annotate.save')
    expect(save?.input?.properties).toHaveProperty('verdict')
    expect(docs.find((d) => d.name === 'agreement.adjudicate')?.description).toMatch(/gold/)
    const human = await cli(['calls'])
    expect(human.out).toMatch(/units\.split/)
  })
})
