import { describe, expect, it } from 'vitest'
import { adjudicationQueue } from '../../src/main/labels/adjudication'
import { agreementForDataset } from '../../src/main/metrics/agreementService'
import { formatFigure, formatPercent } from '../../src/renderer/src/views/agreement/format'
import { appSessions } from './harness'
import { AnnotatePage } from './pages/annotate'

const start = appSessions()

describe('agreement and adjudication in the browser', () => {
  it('shows the κ figures and turns an adjudicated disagreement into gold', async () => {
    const app = await start({ annotator: 'judy' })
    const { page } = app
    const db = app.server.ctx.workspace.db
    const { id: datasetId } = db.prepare('SELECT id FROM datasets').get() as { id: number }
    const expected = agreementForDataset(db, datasetId)
    const queue = adjudicationQueue(db, datasetId)
    expect(queue.open).toBeGreaterThan(1)
    // Each annotator points at a different passage; the adjudicator sees both, in their colours.
    const first = queue.entries[0]!
    const [a, b] = first.labels
    const span = (text: string, words: string) => ({
      start: text.indexOf(words),
      end: text.indexOf(words) + words.length,
    })
    const inCandidate = first.candidate.text.split(' ').slice(0, 4).join(' ')
    const inReference = first.reference.split(' ').slice(2, 6).join(' ')
    app.server.ctx.workspace.labels.save({
      targetId: first.targetId,
      annotatorId: a!.annotatorId,
      verdict: a!.verdict,
      evidence: [{ pane: 'candidate', ...span(first.candidate.text, inCandidate) }],
    })
    app.server.ctx.workspace.labels.save({
      targetId: first.targetId,
      annotatorId: b!.annotatorId,
      verdict: b!.verdict,
      evidence: [{ pane: 'reference', ...span(first.reference, inReference) }],
    })

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Agreement' }).click()
    // Blind mode is on: judy has labelled nothing here, so she steps out of labelling to adjudicate.
    await page.getByRole('button', { name: 'Step out of labelling to adjudicate' }).click()
    // It cannot be undone, so it asks once more; cancelling changes nothing.
    await page.getByRole('button', { name: 'Cancel' }).click()
    expect(db.prepare('SELECT COUNT(*) AS n FROM adjudicator_stepouts').get()).toEqual({ n: 0 })
    await page.getByRole('button', { name: 'Step out of labelling to adjudicate' }).click()
    await page.getByRole('button', { name: 'Step out for good' }).click()
    const figure = (label: string) => page.getByTestId(`figure-${label}`).textContent()
    await expect.poll(() => figure('Percent agreement')).toBe(formatPercent(expected.percent))
    expect(await figure('Fleiss’ κ')).toBe(formatFigure(expected.fleissKappa))
    expect(await figure('Krippendorff’s α (nominal)')).toBe(formatFigure(expected.krippendorffAlpha))
    const pairs = page.getByRole('table', { name: "Cohen's kappa per pair" })
    expect(await pairs.textContent()).toContain(`alex · sam${expected.cohenPairs[0]!.n}`)

    const openTab = page.getByRole('tab', { name: /To adjudicate/ })
    await expect.poll(() => openTab.textContent()).toBe(`To adjudicate (${queue.open})`)
    await expect.poll(() => page.getByTestId('agr-unit').textContent()).toBe(first.unit.text)
    expect(await page.getByTestId('agr-verdict').count()).toBe(2)
    const marks = page.locator('mark.agr-mark')
    expect(await marks.allTextContents()).toEqual([inReference, inCandidate])
    expect(await marks.first().getAttribute('title')).toBe(`Evidence of ${b!.annotator}`)
    await app.shot('agreement')

    // n types a note, digits decide: 2 is the schema's second verdict, "false".
    await page.keyboard.press('n')
    await page.keyboard.type('the answer never says so')
    await page.keyboard.press('Enter')
    await page.keyboard.press('2')
    await expect.poll(() => openTab.textContent()).toBe(`To adjudicate (${queue.open - 1})`)
    expect(await page.getByRole('status').textContent()).toContain('gold is now “False”')
    await expect.poll(() => page.getByTestId('agr-unit').textContent()).toBe(queue.entries[1]!.unit.text)

    const gold = db
      .prepare(
        `SELECT g.verdict, g.source, g.note, a.name AS adjudicator FROM gold g
         JOIN annotators a ON a.id = g.adjudicator_id WHERE g.target_id = ?`,
      )
      .get(first.targetId)
    expect(gold).toEqual({
      verdict: 'false',
      source: 'adjudicated',
      note: 'the answer never says so',
      adjudicator: 'judy',
    })

    await page.getByRole('tab', { name: /Adjudicated/ }).click()
    await expect
      .poll(() => page.getByTestId('agr-gold').textContent())
      .toBe('Gold: False by judy — the answer never says so')
    expect(await page.getByTestId('queue-entry').count()).toBe(1)
    await app.shot('agreement-adjudicated')

    // Labelling after stepping out: the screen says so up front, and a label given anyway is
    // taken back with the workspace's reason instead of waiting to be saved for ever.
    const annotate = new AnnotatePage(page)
    await annotate.open('Demo: WikiEval-style')
    await page.getByText('You stepped out of labelling this dataset').waitFor()
    const unit = page.locator(`#unit-${await annotate.focusedTargetId()}`)
    await page.keyboard.press('1')
    await page.locator('.save-refusal', { hasText: 'stepped out' }).waitFor()
    expect(await annotate.saveState().textContent()).not.toContain('trying again')
    await expect.poll(() => unit.getAttribute('data-verdict')).toBe('')
    expect(
      db
        .prepare(
          "SELECT COUNT(*) AS n FROM labels l JOIN annotators a ON a.id = l.annotator_id WHERE a.name = 'judy'",
        )
        .get(),
    ).toEqual({ n: 0 })
  })
})
