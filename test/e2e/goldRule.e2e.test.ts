import { describe, expect, it } from 'vitest'
import { resolveGold } from '../../src/main/labels/gold'
import { goldRuleHistory } from '../../src/main/labels/ruleService'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { contract } from '../../src/shared/contract'
import { appSessions } from './harness'

const start = appSessions()

describe('gold rule on the dataset card', () => {
  it('sends ties to unsupported from the card, and the gold and its history follow', async () => {
    const app = await start({ annotator: 'lead' })
    const { page } = app
    const db = app.server.ctx.workspace.db
    const { id: datasetId, name } = db
      .prepare(
        `SELECT d.id, d.name FROM datasets d JOIN targets t ON t.dataset_id = d.id JOIN labels l ON l.target_id = t.id
         GROUP BY d.id ORDER BY COUNT(*) DESC LIMIT 1`,
      )
      .get() as { id: number; name: string }
    // Make one tie: a second annotator disagrees with the first on one target.
    const target = db
      .prepare(
        `SELECT l.target_id AS id, l.verdict FROM labels l JOIN targets t ON t.id = l.target_id
         WHERE t.dataset_id = ? AND l.verdict IN ('true', 'false') GROUP BY l.target_id HAVING COUNT(*) = 1 LIMIT 1`,
      )
      .get(datasetId) as { id: number; verdict: string }
    const other = target.verdict === 'true' ? 'false' : 'true'
    const save = buildHandlers(app.server.ctx)['annotate.save']
    await save(
      contract['annotate.save'].input.parse({
        targetId: target.id,
        annotatorId: ensureAnnotator(db, 'second').id,
        verdict: other,
      }),
    )
    const before = resolveGold(db, datasetId)
    expect(before.has(target.id)).toBe(false)

    await page.goto(`${app.server.origin}/#/datasets`)
    const card = page.getByRole('article', { name })
    const panel = card.getByTestId('gold-rule')
    await panel.locator('summary').click()
    expect(await panel.getByLabel('Gold is').locator('option[value="majority"]').textContent()).toBe(
      'the majority of the labels',
    )
    // A majority of the dataset's own reference labels is offered only where it has some.
    const hasSources =
      db
        .prepare(
          `SELECT 1 FROM labels l JOIN targets t ON t.id = l.target_id JOIN annotators a ON a.id = l.annotator_id
           WHERE t.dataset_id = ? AND a.kind = 'source' LIMIT 1`,
        )
        .get(datasetId) !== undefined
    const sources = panel.getByLabel('Counting').locator('option[value="sources"]')
    expect(await sources.isDisabled()).toBe(!hasSources)
    if (!hasSources) expect(await sources.textContent()).toContain('this dataset has none')
    await panel.getByLabel('A tie').selectOption('unsupported')
    await panel.getByRole('button', { name: 'Save gold rule' }).click()
    await panel.locator('summary', { hasText: 'a tie counts as unsupported' }).waitFor()
    await panel.getByRole('list', { name: 'Gold rule history' }).waitFor()
    await app.shot('gold-rule')

    const after = resolveGold(db, datasetId)
    expect(after.get(target.id)?.verdict).toBe('false')
    // Only ties gain gold (this one and the demo's own); no majority changes.
    for (const [id, g] of before) expect(after.get(id)?.verdict).toBe(g.verdict)
    expect(goldRuleHistory(db, datasetId)).toMatchObject([
      { changedBy: 'lead', goldBefore: before.size, goldAfter: after.size, moved: after.size - before.size },
    ])
  })
})
