import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import { importVerdicts } from '../../src/main/import/verdicts'
import { computeItemLevel } from '../../src/main/metrics/items'
import { itemLevelCells, SUMMARY_LEVEL, SYSTEM_LEVEL } from '../../src/shared/itemLevelRows'
import { appSessions } from './harness'

const start = appSessions()
const scratch = mkdtempSync(join(tmpdir(), 'factlab-levels-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/**
 * A SummEval-like set (test/fixtures/summeval: 20 documents × 16 systems, three experts' 1–5
 * consistency, a judge's 1–5 scores) in Compare: the summary- and system-level rows of the
 * item-level table carry intervals, and the summary level over three documents is marked too few.
 */
const DATA = 'test/fixtures/summeval/summeval_like.jsonl'
const JUDGE = 'test/fixtures/summeval/judge_scores.jsonl'

/** The first `docs` documents of both files (16 summaries each). */
function firstDocuments(docs: number): { data: string; judge: string } {
  const head = (file: string) =>
    `${readFileSync(file, 'utf8')
      .split('\n')
      .slice(0, docs * 16)
      .join('\n')}\n`
  const data = join(scratch, `summeval_${docs}.jsonl`)
  const judge = join(scratch, `judge_${docs}.jsonl`)
  writeFileSync(data, head(DATA))
  writeFileSync(judge, head(JUDGE))
  return { data, judge }
}

/** The table's text of a level row, as the view prints it: the mark on a line of its own. */
function expectedRow(db: Parameters<typeof computeItemLevel>[0], datasetId: number, level: string): string[] {
  const row = itemLevelCells(computeItemLevel(db, datasetId)).find(
    (r) => r[4] === level && String(r[0]).startsWith('judge-x'),
  )!
  return row.map((c) => (typeof c === 'string' ? c : c.note ? `${c.text} ${c.note}` : c.text))
}

/** Scrolls the table's own scroller to its right end, so a narrow window's shot shows the figures. */
async function showFigures(table: Locator): Promise<void> {
  await table.scrollIntoViewIfNeeded()
  await table.evaluate((el) => {
    for (let at = el; at; at = at.parentElement!)
      if (at.scrollWidth > at.clientWidth + 1) {
        at.scrollLeft = at.scrollWidth
        return
      }
  })
}

/**
 * Whether each body row's Variant and Level cells can be seen (what tells a per-variant, summary-
 * or system-level row from the pooled one): the point at each one's middle lands on it, not on
 * the pinned first column scrolled over it, and lies inside the table's scroller.
 */
async function levelsInView(table: Locator): Promise<boolean[]> {
  return table.evaluate((el) => {
    const frame = el.parentElement!.getBoundingClientRect()
    const bottom = Math.min(frame.bottom, el.ownerDocument.documentElement.clientHeight)
    const shown: boolean[] = []
    for (const tr of el.querySelectorAll('tbody tr'))
      for (const cell of [tr.children[3]!, tr.children[4]!]) {
        const box = cell.getBoundingClientRect()
        const x = box.left + box.width / 2
        const y = box.top + box.height / 2
        // Rows below the scroller's fold are read after scrolling down; these are the ones in view.
        if (y < frame.top || y > bottom) continue
        const hit = x >= frame.left && x <= frame.right ? el.ownerDocument.elementFromPoint(x, y) : null
        shown.push(hit !== null && cell.contains(hit))
      }
    return shown
  })
}

describe('summary- and system-level intervals in Compare', () => {
  for (const width of [1024, 1440])
    it(`at ${width} px: every level row carries its interval or its too-few mark`, async () => {
      const app = await start({ demo: false, annotator: 'lead', viewport: { width, height: 900 } })
      const { page } = app
      const ws = app.server.ctx.workspace
      const ids: Record<string, number> = {}
      for (const [name, files] of [
        ['summeval-20', { data: DATA, judge: JUDGE }],
        ['summeval-3', firstDocuments(3)],
      ] as const) {
        const report = await importFile(ws, { file: files.data, datasetName: name })
        ids[name] = report.datasetId
        await importVerdicts(ws, { file: files.judge, datasetName: name, model: 'judge-x' })
      }

      await page.evaluate(`location.hash = '#/compare/${ids['summeval-20']}'`)
      const table = page.getByTestId('item-level')
      await table.waitFor()
      const rowOf = async (level: string) =>
        (
          await table
            .locator('tbody tr')
            .filter({ hasText: 'judge-x' })
            .filter({ hasText: level })
            .first()
            .locator('td')
            .allTextContents()
        ).slice(0, 9)
      const summary = await rowOf(SUMMARY_LEVEL)
      expect(summary).toEqual(expectedRow(ws.db, ids['summeval-20']!, SUMMARY_LEVEL))
      // Twenty documents: a figure and its interval, with no too-few mark.
      expect(summary[5]).toBe('20')
      for (const cell of summary.slice(6, 9))
        expect(cell).toMatch(/^-?\d\.\d{3} \[-?\d\.\d{3}, -?\d\.\d{3}\]$/)
      const system = await rowOf(SYSTEM_LEVEL)
      expect(system).toEqual(expectedRow(ws.db, ids['summeval-20']!, SYSTEM_LEVEL))
      expect(system[5]).toBe('16 variants')
      expect(system[6]).toMatch(/^-?\d\.\d{3} \[-?\d\.\d{3}, -?\d\.\d{3}\]$/)
      await showFigures(table)
      // Scrolled to its figures, every row still says which level it is.
      await table.scrollIntoViewIfNeeded()
      const levels = await levelsInView(table)
      expect(levels.length).toBeGreaterThan(2)
      expect(levels).not.toContain(false)
      await app.shot(`level-intervals-compare-${width}`)

      await page.evaluate(`location.hash = '#/compare/${ids['summeval-3']}'`)
      await page.getByTestId('item-level').waitFor()
      await expect.poll(async () => (await rowOf(SUMMARY_LEVEL))[5]).toBe('3')
      // Three documents: withheld and marked; the sixteen systems' figure keeps an interval,
      // drawn over those three documents too.
      expect((await rowOf(SUMMARY_LEVEL)).slice(6, 9)).toEqual(Array(3).fill('— too few items (n=3)'))
      const few = await rowOf(SYSTEM_LEVEL)
      expect(few).toEqual(expectedRow(ws.db, ids['summeval-3']!, SYSTEM_LEVEL))
      expect(few[6]).toMatch(/^-?\d\.\d{3} \[-?\d\.\d{3}, -?\d\.\d{3}\]$/)
      await showFigures(page.getByTestId('item-level'))
      await app.shot(`level-intervals-compare-3docs-${width}`)
    })
})
