import type { Database } from 'better-sqlite3'
import type { Page, Response } from 'playwright-core'

/**
 * Watches every API reply a page receives and every state of its DOM that a test asks about,
 * and lists what blind mode should have kept back: for a target `me` has no current verdict on,
 * another annotator's verdict, a judge's verdict, or the fact that it is disputed.
 */
export class BlindWatch {
  readonly leaks: string[] = []
  readonly seen: string[] = []
  private pending: Promise<void>[] = []

  constructor(
    page: Page,
    private readonly db: Database,
    private readonly me: () => number,
  ) {
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/call')) this.pending.push(this.check(r))
    })
  }

  /** Waits for every reply seen so far to be checked. */
  async settle(): Promise<void> {
    await Promise.all(this.pending.splice(0))
  }

  private labelled(): Set<number> {
    const rows = this.db
      .prepare('SELECT target_id AS id FROM labels WHERE annotator_id = ? AND verdict IS NOT NULL')
      .all(this.me()) as { id: number }[]
    return new Set(rows.map((r) => r.id))
  }

  private async check(r: Response): Promise<void> {
    let body: unknown
    try {
      body = await r.json()
    } catch {
      return
    }
    const name = new URL(r.url()).pathname.replace('/api/call/', '')
    this.seen.push(name)
    const mine = this.labelled()
    const leak = (what: string) => this.leaks.push(`${name}: ${what}`)
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) {
        for (const x of v) walk(x)
        return
      }
      if (v === null || typeof v !== 'object') return
      const o = v as Record<string, unknown>
      const id = typeof o.targetId === 'number' ? o.targetId : null
      if (id !== null && !mine.has(id)) {
        if (Array.isArray(o.others) && o.others.length > 0) leak(`others' verdicts on target ${id}`)
        if (o.judges !== undefined && o.judges !== null) leak(`judge verdicts on target ${id}`)
        if (o.disputed === true) leak(`disputed flag on target ${id}`)
        if ('unit' in o && Array.isArray(o.labels)) leak(`dispute queue entry for target ${id}`)
        if ('runId' in o && 'verdict' in o && !('others' in o)) leak(`a judge verdict on target ${id}`)
        if ('unsupportedShare' in o) leak(`the judges' split on target ${id}`)
      }
      // An item row's dispute count may only count disputes on targets I labelled.
      if (typeof o.itemId === 'number' && typeof o.disputed === 'number' && o.disputed > 0) {
        const ids = (
          this.db.prepare('SELECT target_id AS id FROM disputed_targets WHERE item_id = ?').all(o.itemId) as {
            id: number
          }[]
        ).filter((t) => mine.has(t.id))
        if (o.disputed > ids.length) leak(`${o.disputed} disputes counted on item ${o.itemId}`)
      }
      for (const x of Object.values(o)) walk(x)
    }
    walk(body)
  }
}

/** Turns blind mode off for this browser (someone reviewing everyone's labels) and reloads. */
export async function turnBlindOff(page: Page): Promise<void> {
  await page.evaluate(`localStorage.setItem('factlab.settings', JSON.stringify({
    ...JSON.parse(localStorage.getItem('factlab.settings') ?? '{}'), blind: false }))`)
  await page.reload()
  await page.locator('.shell').waitFor()
}
