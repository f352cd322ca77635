import type { Db } from '../store/connection'
import { ContentWriter } from '../store/repos/content'
import { LabelWriter } from '../store/repos/labels'
import { now } from '../store/repos/rows'
import { RowError } from './errors'
import type { NormItem } from './normalized'

export interface SinkCounts {
  items: number
  candidates: number
  units: number
  labels: number
  annotators: number
}

/**
 * Writes validated items into one dataset through the store's writers, on the import's own
 * connection and inside its transaction. Annotators are created on first use and cached, so a
 * row costs inserts only.
 */
export class ItemSink {
  readonly counts: SinkCounts = { items: 0, candidates: 0, units: 0, labels: 0, annotators: 0 }
  private readonly content: ContentWriter
  private readonly labels: LabelWriter
  private readonly annotators = new Map<string, number>()
  private readonly findAnnotator
  private readonly addAnnotator
  private readonly target
  private position = 0
  private readonly at = now()

  constructor(
    db: Db,
    private readonly datasetId: number,
    private readonly idField: string,
  ) {
    this.content = new ContentWriter(db)
    this.labels = new LabelWriter(db)
    this.findAnnotator = db.prepare('SELECT id FROM annotators WHERE name = ?')
    this.addAnnotator = db.prepare('INSERT INTO annotators (name, created_at) VALUES (?, ?)')
    this.target = db.prepare('SELECT id FROM targets WHERE unit_id = ? AND candidate_id = ?')
  }

  private annotator(name: string): number {
    const key = name.trim()
    if (!key) throw new RowError('an annotator name is empty')
    let id = this.annotators.get(key)
    if (id === undefined) {
      const row = this.findAnnotator.get(key) as { id: number } | undefined
      id = row ? row.id : Number(this.addAnnotator.run(key, this.at).lastInsertRowid)
      this.annotators.set(key, id)
      this.counts.annotators++
    }
    return id
  }

  private label(unitId: number, candidateId: number, annotator: string, verdict: string): void {
    const t = this.target.get(unitId, candidateId) as { id: number } | undefined
    if (!t) throw new Error('an imported unit has no target')
    this.labels.save({ targetId: t.id, annotatorId: this.annotator(annotator), verdict }, 'import', this.at)
    this.counts.labels++
  }

  write(item: NormItem, extId: string): void {
    let itemId: number
    try {
      itemId = this.content.insertItem(
        this.datasetId,
        { extId, question: item.question, reference: item.reference, metadata: item.metadata },
        this.position,
      )
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
        throw new RowError(`duplicate item id "${extId}"`, this.idField)
      throw error
    }
    this.position++
    const candidateIds = new Map<string, number>()
    for (const c of item.candidates) {
      if (candidateIds.has(c.variant)) throw new RowError(`candidate variant "${c.variant}" appears twice`)
      const cid = this.content.insertCandidate(itemId, {
        variant: c.variant,
        text: c.text,
        metadata: c.metadata,
      })
      candidateIds.set(c.variant, cid)
      c.units.forEach((u, i) => {
        const uid = this.content.insertUnit(itemId, {
          kind: u.kind,
          text: u.text,
          candidateId: cid,
          triplet: u.triplet ?? null,
          origin: u.origin ?? 'import',
          position: i,
        })
        for (const l of u.labels) this.label(uid, cid, l.annotator, l.verdict)
      })
      this.counts.units += c.units.length
    }
    this.counts.candidates += item.candidates.length
    item.facts.forEach((f, i) => {
      const uid = this.content.insertUnit(itemId, { kind: 'fact', text: f.text, position: i })
      for (const l of f.labels) {
        const cid = candidateIds.get(l.variant)
        if (cid === undefined)
          throw new RowError(`fact labels name variant "${l.variant}", which this item lacks`)
        this.label(uid, cid, l.annotator, l.verdict)
      }
    })
    this.counts.units += item.facts.length
    this.counts.items++
  }
}
