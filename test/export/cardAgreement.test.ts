import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgreementSummary } from '../../src/shared/contract/agreement'
import { testApps } from '../helpers/app'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './project'

const tmp = tmpDirs()
const app = testApps()

/** The agreement figures a dataset card prints, read back from its Markdown. */
function cardFigures(card: string) {
  const section = card.slice(card.indexOf('## Agreement'), card.indexOf('## License'))
  const n = Number(/Measured on the (\d+) targets/.exec(section)![1])
  const percent = /percent agreement[^:]*: ([\d.]+)%/.exec(section)![1]!
  const fleiss = /Fleiss' κ: (-?[\d.]+)/.exec(section)![1]!
  const pairs = [
    ...section.matchAll(
      /^\| (.+?) \/ (.+?) \| (\d+) \| (-?[\d.]+|n\/a)(?: · (too few shared targets \(n=\d+\)))? \|$/gm,
    ),
  ].map((m) => ({
    pair: `${m[1]} / ${m[2]}`,
    n: Number(m[3]),
    kappa: m[4]!,
    mark: m[5] ?? '',
  }))
  return { n, percent, fleiss, pairs, section }
}

/** The Agreement view's figures, printed the way the card prints them. */
function asCard(v: AgreementSummary) {
  return {
    n: v.n,
    percent: (v.percent! * 100).toFixed(1),
    fleiss: v.fleissKappa!.toFixed(3),
    pairs: v.cohenPairs
      .filter((p) => p.n > 0)
      .map((p) => ({
        pair: `${p.a} / ${p.b}`,
        n: p.n,
        kappa: p.kappa === null ? 'n/a' : p.kappa.toFixed(3),
        // The view's mark on a pair over too few shared targets: the card must not drop it.
        mark: p.n < 20 ? `too few shared targets (n=${p.n})` : '',
      })),
  }
}

describe('the dataset card gives the Agreement view’s figures, control items left out', () => {
  it.each(['jsonl', 'parquet', 'wikievalfacts-csv'] as const)('%s', async (format) => {
    const dir = tmp()
    const file = join(dir, 'lead.factlab')
    const { datasetId } = seedProject(file)
    const a = app(file)
    // WikiEvalFacts holds facts in three answers: the sentence and the answer still waiting for
    // its facts go first.
    if (format === 'wikievalfacts-csv') {
      a.ctx.workspace.db.prepare("DELETE FROM items WHERE ext_id = 'q4'").run()
      a.ctx.workspace.db.prepare("UPDATE units SET deleted_at = '2026-01-01' WHERE kind = 'sentence'").run()
    }
    const view = await a.value<AgreementSummary>('agreement.summary', { datasetId })
    const withControls = await a.value<AgreementSummary>('agreement.summary', {
      datasetId,
      includeControls: true,
    })
    // The controls are labelled by several people, so leaving them out changes the figures.
    expect(withControls.n).toBeGreaterThan(view.n)
    const { files } = await a.value<{ files: string[] }>('exports.dataset', {
      datasetId,
      format,
      outDir: join(dir, 'out'),
    })
    const card = readFileSync(files.find((f) => f.endsWith('README.md'))!, 'utf8')
    const { section, ...printed } = cardFigures(card)
    expect(printed).toEqual(asCard(view))
    // The seeded pairs share fewer than 20 targets: every one is marked on the card, as in the view.
    expect(printed.pairs.length).toBeGreaterThan(0)
    expect(printed.pairs.every((p) => p.mark !== '')).toBe(true)
    // So is percent agreement over the same few shared targets, as the Agreement view marks it.
    expect(view.n).toBeLessThan(20)
    expect(section).toContain(`: ${printed.percent}% · too few shared targets (n=${view.n})`)
    // The release's own labels (a source) are compared with each person apart, never in the card's figures.
    expect(view.sourcePairs.some((p) => p.b === 'release' && p.n > 0)).toBe(true)
    expect(printed.pairs.some((p) => p.pair.includes('release'))).toBe(false)
    // They come after, apart, each pair saying who is the person and who the release's labels.
    const release = section.slice(section.indexOf('### The release’s own labels'))
    expect(release).toContain('| person | release’s labels | shared targets | κ | AC1 | PABAK |')
    for (const p of view.sourcePairs.filter((p) => p.kind === 'person-source' && p.n > 0))
      expect(release).toContain(`| ${p.a} | ${p.b} | ${p.n} | `)
    expect(view.sourcePairs.every((p) => p.kind === 'person-source' && p.b === 'release')).toBe(true)
    expect(section).toContain('(control items left out)')
    expect(card).toContain('- control items: 3 (')
    // Each person's accuracy on the three controls is a rate over too few answers: marked, as
    // every other rate is, never a bare 100.0%.
    const controlRows = [...card.matchAll(/^\| (.+?) \| (\d+) \| (\d+) \| (.+?) \| .+ \|$/gm)].filter((m) =>
      /^\d+\.\d%/.test(m[4]!),
    )
    expect(controlRows.length).toBeGreaterThan(0)
    for (const m of controlRows) expect(m[4]).toMatch(new RegExp(` · too few targets \\(n=${m[2]}\\)$`))
  })
})
