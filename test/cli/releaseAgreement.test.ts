import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const FIXTURES = join(__dirname, '..', 'fixtures', 'import')

interface Scope {
  n: number
  percent: number | null
  fleiss_kappa: number | null
  krippendorff_alpha: number | null
  too_few_shared: boolean
}
interface Agreement extends Scope {
  source_pairs: { a: string; b: string; kind: string; n: number }[]
  among_sources: (Scope & { annotators: string[]; by_variant: Record<string, Scope> }) | null
}

async function run(args: string[]) {
  const r = await cli(args)
  expect(r.code, r.err).toBe(0)
  return r.out
}

async function agreement(ws: string, dataset: string): Promise<Agreement> {
  return (
    JSON.parse(await run(['metrics', '--workspace', ws, '--dataset', dataset, '--json'])) as {
      agreement: Agreement
    }
  ).agreement
}

/** A published benchmark whose labels are all its own annotators' (sources), through the CLI. */
describe('a released benchmark’s own agreement through the CLI', () => {
  it('QAGS: the workers’ agreement among themselves in the JSON, the report and the card, never as people’s', async () => {
    const dir = tmp()
    const ws = join(dir, 'ws.factlab')
    await run(['import', join(FIXTURES, 'qags.jsonl'), '--workspace', ws, '--dataset', 'qags'])
    const a = await agreement(ws, 'qags')
    expect(a.n).toBe(0)
    expect(a.among_sources?.annotators).toEqual(['w1', 'w2', 'w3', 'w4'])
    expect(a.among_sources?.n).toBe(3)
    expect(a.among_sources?.too_few_shared).toBe(true)
    expect(a.source_pairs.every((p) => p.kind === 'sources')).toBe(true)

    const md = await run(['metrics', '--workspace', ws, '--dataset', 'qags'])
    expect(md).toContain("## Agreement among the release's annotators (not counted in the figures above)")
    expect(md).toContain("## The release's annotators against each other")
    expect(md).toContain("| Release's annotator | Release's annotator | Overlap |")

    await run([
      'export',
      '--workspace',
      ws,
      '--dataset',
      'qags',
      '--format',
      'jsonl',
      '--out',
      join(dir, 'out'),
    ])
    const card = readFileSync(join(dir, 'out', 'README.md'), 'utf8')
    const section = card.slice(card.indexOf('## Agreement'), card.indexOf('## License'))
    // Nothing says the workers are people ("at least two annotators labelled" counted them as such).
    expect(section).not.toMatch(/annotators labelled/)
    expect(section).toContain('No target has labels from two people')
    expect(section).toContain(
      'Agreement among the release’s annotators (w1, w2, w3, w4), measured on the 3 targets',
    )
    expect(section).toContain(
      `- Fleiss' κ: ${a.among_sources!.fleiss_kappa!.toFixed(3)} · too few shared targets (n=3)`,
    )
    expect(section).toMatch(/^\| w1 \| w2 \| 3 \| /m)
    expect(card).toContain('| w1 (the release’s labels) | `label_w1` | 3 |')
  })

  it('SummEval: the experts’ agreement is interval α over their scores, in the JSON, the report and the card', async () => {
    const dir = tmp()
    const ws = join(dir, 'ws.factlab')
    await run(['import', join(FIXTURES, 'summeval.jsonl'), '--workspace', ws, '--dataset', 'summeval'])
    const before = await agreement(ws, 'summeval')
    expect(before.among_sources?.annotators).toEqual([
      'SummEval expert 1',
      'SummEval expert 2',
      'SummEval expert 3',
    ])
    expect(before.among_sources?.n).toBe(3)
    expect(before.among_sources?.krippendorff_alpha).toBeGreaterThan(0.9)

    const md = await run(['metrics', '--workspace', ws, '--dataset', 'summeval'])
    expect(md).toContain(
      "The dataset's own reference labels (SummEval expert 1, SummEval expert 2, SummEval expert 3)",
    )
    await run([
      'export',
      '--workspace',
      ws,
      '--dataset',
      'summeval',
      '--format',
      'csv',
      '--out',
      join(dir, 'out'),
    ])
    const card = readFileSync(join(dir, 'out', 'README.md'), 'utf8')
    expect(card).toContain(
      `- Krippendorff's α (interval): ${before.among_sources!.krippendorff_alpha!.toFixed(3)} · too few shared targets (n=3)`,
    )
  })
})
