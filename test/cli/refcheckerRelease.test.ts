import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { MODELS, SETTING } from '../helpers/refcheckerRelease'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

interface Json {
  refchecker: {
    human: Record<string, unknown> & { by_variant: Record<string, unknown> }
    judges: (Record<string, unknown> & { run: number; label: string; triplet_error_rate: number | null })[]
  }
  judges: { run: number; model: string }[]
}

async function metrics(ws: string, dataset: string): Promise<Json> {
  const r = await cli(['metrics', '--workspace', ws, '--dataset', dataset, '--json'])
  expect(r.code, r.err).toBe(0)
  return JSON.parse(r.out) as Json
}

/** A checker's verdicts on every triplet: the human label, except every `flip`-th one turned neutral. */
function writeChecker(file: string, flip: number): void {
  const lines: string[] = []
  let k = 0
  for (const model of MODELS) {
    const rows = JSON.parse(readFileSync(join(SETTING, `nq_${model}_answers.json`), 'utf8')) as {
      id: string
      claude2_response_kg?: { human_label: string }[]
    }[]
    for (const r of rows)
      for (const [i, t] of (r.claude2_response_kg ?? []).entries()) {
        const verdict = ++k % flip === 0 ? 'Neutral' : t.human_label
        lines.push(JSON.stringify({ item_id: r.id, variant: model, unit: i, verdict }))
      }
  }
  writeFileSync(file, `${lines.join('\n')}\n`)
}

describe('RefChecker release files through the CLI', () => {
  it('folder import → metrics → export in the release layout → import gives the same figures', async () => {
    const dir = tmp()
    const a = join(dir, 'a.factlab')
    const imported = await cli(['import', SETTING, '--workspace', a, '--json'])
    expect(imported.code, imported.err).toBe(0)
    const report = JSON.parse(imported.out) as {
      dataset: string
      candidates: number
      files: { variant: string }[]
    }
    expect(report.files.map((f) => f.variant)).toEqual(MODELS)

    // Two checkers' verdicts, one run per file, in one command.
    const judges = join(dir, 'judges')
    mkdirSync(judges)
    writeChecker(join(judges, 'strict_checker.jsonl'), 5)
    writeChecker(join(judges, 'loose_checker.jsonl'), 2)
    const v = await cli([
      'import-verdicts',
      judges,
      '--workspace',
      a,
      '--dataset',
      'zero_context',
      // The checker files count each response's triplets from 0, as RefChecker's lists do.
      '--unit-base',
      '0',
      '--json',
    ])
    expect(v.code, v.err).toBe(0)
    expect((JSON.parse(v.out) as { runs: { model: string }[] }).runs.map((r) => r.model)).toEqual([
      'loose_checker',
      'strict_checker',
    ])

    // Imported runs list in the Judges view like any other (they used to break the listing).
    const listed = await cli(['call', 'judges.runs', '{}', '--workspace', a])
    expect(listed.code, listed.err).toBe(0)
    expect((JSON.parse(listed.out) as { model: string }[]).map((r) => r.model).sort()).toEqual([
      'loose_checker',
      'strict_checker',
    ])

    const first = await metrics(a, 'zero_context')
    expect(first.refchecker.judges.map((j) => j.label.split(' ')[0])).toEqual([
      'loose_checker',
      'strict_checker',
    ])
    // Every 2nd / 5th triplet turned neutral: the loose checker errs more often.
    const [loose, strict] = first.refchecker.judges
    expect(loose!.triplet_error_rate!).toBeGreaterThan(strict!.triplet_error_rate!)

    // export-verdicts carries the checker's per-response figures beside its verdicts.
    const out = join(dir, 'loose.jsonl')
    expect(
      (await cli(['export-verdicts', '--workspace', a, '--run', String(loose!.run), '--out', out])).code,
    ).toBe(0)
    const perResponse = readFileSync(join(dir, 'loose.responses.jsonl'), 'utf8').trim().split('\n')
    expect(perResponse).toHaveLength(28)
    expect(JSON.parse(perResponse[0]!)).toMatchObject({ variant: 'alpaca_7B', source: `run:${loose!.run}` })

    const exported = join(dir, 'export')
    const e = await cli([
      'export',
      '--workspace',
      a,
      '--dataset',
      'zero_context',
      '--format',
      'refchecker-json',
      '--out',
      exported,
    ])
    expect(e.code, e.err).toBe(0)
    expect(readdirSync(join(exported, 'zero_context')).sort()).toEqual(
      MODELS.map((m) => `nq_${m}_answers.json`).sort(),
    )
    const b = join(dir, 'b.factlab')
    const again = await cli(['import', join(exported, 'zero_context'), '--workspace', b, '--json'])
    expect(again.code, again.err).toBe(0)
    const second = await metrics(b, 'zero_context')
    expect(second.refchecker.human).toEqual(first.refchecker.human)
  })
})
