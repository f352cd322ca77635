import type { Statement } from 'better-sqlite3'
import type { GoldRule } from '../../shared/goldRule'
import type { LabelSchema } from '../../shared/labelSchemas'
import { nameKey } from '../../shared/personName'
import { importedGoldWriter } from '../labels/gold'
import { LabelWriter } from '../labels/labels'
import type { Db } from '../store/connection'
import { now } from '../store/repos/rows'
import { RowError } from './errors'
import type { NormItem, NormLabel, NormTargetExtras } from './normalized'
import { WorkspaceNames } from './workspaceNames'

export interface SinkCounts {
  items: number
  candidates: number
  units: number
  labels: number
  annotators: number
}

/**
 * Writes validated items into one dataset on the import's own connection, inside the current
 * chunk's transaction. It follows ContentWriter's rules (lineage = own id, a fact is a target in every
 * candidate of its item, any other unit in its own candidate) but inserts targets from the ids
 * it already holds instead of ContentWriter's INSERT … SELECT per unit: an import is a bulk
 * load and its rate is held to half a bare insert's. Labels go through LabelWriter.
 */
export class ItemSink {
  readonly counts: SinkCounts = { items: 0, candidates: 0, units: 0, labels: 0, annotators: 0 }
  /** Sources whose name a person holds here, and the name their labels went under instead. */
  readonly renamedSources: { wanted: string; used: string }[] = []
  private readonly insItem
  private readonly insCandidate
  private readonly insUnit
  private readonly insTarget
  private readonly setLineage
  private readonly insGold
  private readonly labels: LabelWriter
  /** The file's label givers by name key (shared/personName.ts): "Ana" and "ana" are one. */
  private readonly annotators = new Map<string, number>()
  private readonly names: WorkspaceNames
  /** The preset's own sources, by name key. */
  private readonly sourceKeys: Set<string>
  private readonly addAnnotator
  private readonly noteAdded
  private readonly target
  private readonly findItem
  private readonly fillReference
  private readonly itemFacts
  private readonly setSchema
  private readonly setGoldRule
  private goldRuleText: string | null = null
  /** Reference-label givers the rows name (NormItem.sources), beside the preset's own, by name key. */
  private readonly fileSources = new Set<string>()
  private insControl: Statement | undefined
  /** The label schema the file's rows state (NormItem.labelSchema), as JSON; null until one does. */
  private schemaText: string | null = null
  private schemaSeen: LabelSchema | null = null
  private schemaSeenText = ''
  private position = 0
  /** Ids the current file of a multi-file import wrote (null: a one-file import). */
  private partIds: Set<string> | null = null
  private readonly at = now()

  constructor(
    private readonly db: Db,
    private readonly datasetId: number,
    private readonly idField: string,
    sources: readonly string[] = [],
    goldRule?: GoldRule,
  ) {
    this.insItem = db.prepare(
      'INSERT INTO items (dataset_id, ext_id, position, question, reference, metadata) VALUES (?, ?, ?, ?, ?, ?)',
    )
    this.insCandidate = db.prepare(
      "INSERT INTO candidates (item_id, variant, text, origin, metadata) VALUES (?, ?, ?, 'import', ?)",
    )
    this.insUnit = db.prepare(
      `INSERT INTO units (item_id, candidate_id, kind, position, text, triplet, origin, version, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)`,
    )
    this.setLineage = db.prepare('UPDATE units SET lineage_id = id WHERE id = ?')
    this.insTarget = db.prepare(
      'INSERT INTO targets (dataset_id, item_id, unit_id, candidate_id) VALUES (?, ?, ?, ?)',
    )
    this.labels = new LabelWriter(db)
    this.insGold = importedGoldWriter(db)
    this.names = new WorkspaceNames(db)
    this.sourceKeys = new Set(sources.map(nameKey))
    this.addAnnotator = db.prepare('INSERT INTO annotators (name, created_at, kind) VALUES (?, ?, ?)')
    this.noteAdded = db.prepare(
      'INSERT INTO dataset_import_annotators (dataset_id, annotator_id) VALUES (?, ?)',
    )
    this.target = db.prepare('SELECT id FROM targets WHERE unit_id = ? AND candidate_id = ?')
    this.findItem = db.prepare(
      'SELECT id, question, reference FROM items WHERE dataset_id = ? AND ext_id = ?',
    )
    this.fillReference = db.prepare(
      'UPDATE items SET reference = ?, question = coalesce(question, ?) WHERE id = ?',
    )
    this.itemFacts = db.prepare(
      "SELECT id FROM units WHERE item_id = ? AND kind = 'fact' AND superseded_by IS NULL AND deleted_at IS NULL",
    )
    this.setSchema = db.prepare('UPDATE datasets SET label_schema = ? WHERE id = ? AND label_schema IS NOT ?')
    this.setGoldRule = db.prepare(
      "UPDATE datasets SET settings = json_set(settings, '$.goldRule', json(?)) WHERE id = ?",
    )
    if (goldRule) this.adoptGoldRule(goldRule)
  }

  /**
   * The gold rule the dataset starts with: a preset's (SummEval: its experts), or the one
   * FactLab's own export states. Set before any person labels, so no gold moves and there is no
   * change to keep in the rule's history.
   */
  private adoptGoldRule(rule: GoldRule): void {
    const text = JSON.stringify(rule)
    if (text === this.goldRuleText) return
    if (this.goldRuleText !== null)
      throw new RowError('its gold rule differs from the one earlier rows state', 'gold_rule')
    this.goldRuleText = text
    this.setGoldRule.run(text, this.datasetId)
  }

  /**
   * A multi-file import: an item an earlier file already wrote gets this file's candidates (one
   * variant per file). Its question and reference must agree; one file may give the reference
   * another left out. Facts stay with the file that brought them.
   */
  /** A multi-file import moves on to its next file. */
  startPart(): void {
    this.partIds = new Set()
  }

  private existing(item: NormItem, extId: string): number | null {
    if (this.partIds?.has(extId)) throw new RowError(`duplicate item id "${extId}"`, this.idField)
    const row = this.findItem.get(this.datasetId, extId) as
      | { id: number; question: string | null; reference: string }
      | undefined
    if (!row) return null
    if (item.reference !== '' && row.reference !== '' && item.reference !== row.reference)
      throw new RowError(`item "${extId}" has a different reference in an earlier file`, 'reference')
    if (item.question !== null && row.question !== null && item.question !== row.question)
      throw new RowError(`item "${extId}" has a different question in an earlier file`, 'question')
    if (item.facts.length)
      throw new RowError(`item "${extId}" already came with an earlier file; facts must come in one file`)
    if (row.reference === '' && item.reference !== '')
      this.fillReference.run(item.reference, item.question, row.id)
    return row.id
  }

  private annotator(name: string): number {
    const shown = name.trim()
    if (!shown) throw new RowError('an annotator name is empty')
    const key = nameKey(shown)
    let id = this.annotators.get(key)
    if (id === undefined) {
      const source = this.sourceKeys.has(key) || this.fileSources.has(key)
      const row = this.names.find(shown)
      if (row && (!source || row.kind === 'source')) id = row.id
      else if (row) {
        // A person holds the name (made by hand, or by an import from before the file's labels
        // were a source, and labelled as since): the dataset's reference labels must not become
        // theirs, to be offered and overwritten as a person's, so they take a free name.
        const used = this.freeName(`${shown} (source)`)
        id = this.add(used, 'source')
        this.renamedSources.push({ wanted: shown, used })
      } else id = this.add(shown, source ? 'source' : 'person')
      this.annotators.set(key, id)
      this.counts.annotators++
    }
    return id
  }

  /**
   * A person the file's plan names, found or added like a label giver (so a withdrawn import
   * takes a new one back); null where a label source holds the name.
   */
  person(name: string): number | null {
    const key = nameKey(name)
    const known = this.annotators.get(key)
    const row = this.names.find(name)
    if (row?.kind === 'source') return null
    if (known !== undefined) return known
    const id = row ? row.id : this.add(name.trim(), 'person')
    this.annotators.set(key, id)
    this.counts.annotators++
    return id
  }

  private add(name: string, kind: 'person' | 'source'): number {
    const existing = this.names.find(name)
    if (existing) return existing.id
    const id = Number(this.addAnnotator.run(name, this.at, kind).lastInsertRowid)
    // Noted in the same transaction, so a withdrawn import (even after a crash) takes it back.
    this.noteAdded.run(this.datasetId, id)
    return id
  }

  /** `base`, or `base 2`, `base 3`…: the first that is free or already a source. */
  private freeName(base: string): string {
    for (let n = 1; ; n++) {
      const name = n === 1 ? base : `${base} ${n}`
      const row = this.names.find(name)
      if (!row || row.kind === 'source') return name
    }
  }

  private label(unitId: number, candidateId: number, l: NormLabel): void {
    const t = this.target.get(unitId, candidateId) as { id: number } | undefined
    if (!t) throw new Error('an imported unit has no target')
    this.labels.save(
      {
        targetId: t.id,
        annotatorId: this.annotator(l.annotator),
        verdict: l.verdict,
        ...(l.note === undefined ? {} : { note: l.note }),
        ...(l.seconds === undefined ? {} : { seconds: l.seconds }),
        ...(l.evidence === undefined ? {} : { evidence: l.evidence }),
        ...(l.guidelinesVersion === undefined ? {} : { guidelinesVersion: l.guidelinesVersion }),
      },
      'import',
      // A label keeps when it was first given where the file says: it ranks the target's labels.
      l.placedAt ?? this.at,
    )
    this.counts.labels++
  }

  /** A target's stored gold and control answer, where the file gives them. */
  private extras(targetId: number, x: NormTargetExtras): void {
    if (x.gold !== undefined) this.insGold(targetId, x.gold, this.at, x.goldSource ?? 'import')
    if (x.control !== undefined) {
      // Prepared on first use: only FactLab's own export brings control items.
      this.insControl ??= this.db.prepare(
        "INSERT INTO controls (target_id, dataset_id, verdict, source, created_at) VALUES (?, ?, ?, 'file', ?)",
      )
      this.insControl.run(targetId, this.datasetId, x.control, this.at)
    }
  }

  /**
   * The schema a file states on its rows becomes the dataset's before any label is checked
   * against it. Run for every item that states one (an update that changes nothing costs one
   * look-up), so a first item withdrawn by skip-bad-rows cannot leave the schema unset.
   */
  private adoptSchema(schema: LabelSchema): void {
    // A preset hands the same object for the same cell, so most items skip the stringify.
    if (schema !== this.schemaSeen) this.schemaSeenText = JSON.stringify(schema)
    this.schemaSeen = schema
    const text = this.schemaSeenText
    if (this.schemaText !== null && text !== this.schemaText)
      throw new RowError('its label schema differs from the one earlier rows state', 'dataset_schema')
    this.schemaText = text
    this.setSchema.run(text, this.datasetId, text)
  }

  private unit(
    itemId: number,
    candidateId: number | null,
    kind: string,
    position: number,
    text: string,
    triplet: string | null,
    origin: string,
  ): number {
    const id = Number(
      this.insUnit.run(itemId, candidateId, kind, position, text, triplet, origin, this.at).lastInsertRowid,
    )
    this.setLineage.run(id)
    return id
  }

  write(item: NormItem, extId: string, appendToEarlierFile = false): void {
    if (item.labelSchema) this.adoptSchema(item.labelSchema)
    if (item.goldRule) this.adoptGoldRule(item.goldRule)
    for (const name of item.sources ?? []) this.fileSources.add(nameKey(name))
    const earlier = appendToEarlierFile ? this.existing(item, extId) : null
    if (earlier !== null) {
      this.candidates(earlier, item, extId, true)
      return
    }
    let itemId: number
    try {
      itemId = Number(
        this.insItem.run(
          this.datasetId,
          extId,
          this.position,
          item.question,
          item.reference,
          JSON.stringify(item.metadata),
        ).lastInsertRowid,
      )
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
        throw new RowError(`duplicate item id "${extId}"`, this.idField)
      throw error
    }
    this.position++
    this.partIds?.add(extId)
    const candidateIds = this.candidates(itemId, item, extId, false)
    item.facts.forEach((f, i) => {
      const uid = this.unit(itemId, null, 'fact', i, f.text, null, f.origin ?? 'import')
      const targets = new Map<string, number>()
      for (const [variant, cid] of candidateIds)
        targets.set(variant, Number(this.insTarget.run(this.datasetId, itemId, uid, cid).lastInsertRowid))
      for (const l of f.labels) {
        const cid = candidateIds.get(l.variant)
        if (cid === undefined)
          throw new RowError(`fact labels name variant "${l.variant}", which this item lacks`)
        this.label(uid, cid, l)
      }
      for (const x of f.targets ?? []) {
        const targetId = targets.get(x.variant)
        if (targetId === undefined)
          throw new RowError(`a fact's gold or control names variant "${x.variant}", which this item lacks`)
        this.extras(targetId, x)
      }
    })
    this.counts.units += item.facts.length
    this.counts.items++
  }

  /** Inserts an item's candidates, their units and targets; facts already there get targets too. */
  private candidates(itemId: number, item: NormItem, extId: string, earlier: boolean): Map<string, number> {
    const candidateIds = new Map<string, number>()
    // A new item has no facts yet; only an item from an earlier file is worth the look-up.
    const facts = earlier ? (this.itemFacts.all(itemId) as { id: number }[]) : []
    for (const c of item.candidates) {
      if (candidateIds.has(c.variant)) throw new RowError(`candidate variant "${c.variant}" appears twice`)
      let cid: number
      try {
        cid = Number(
          this.insCandidate.run(itemId, c.variant, c.text, JSON.stringify(c.metadata ?? {})).lastInsertRowid,
        )
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
          throw new RowError(`item "${extId}" already has a candidate "${c.variant}"`)
        throw error
      }
      for (const f of facts) this.insTarget.run(this.datasetId, itemId, f.id, cid)
      candidateIds.set(c.variant, cid)
      c.units.forEach((u, i) => {
        const uid = this.unit(
          itemId,
          cid,
          u.kind,
          i,
          u.text,
          u.triplet ? JSON.stringify(u.triplet) : null,
          u.origin ?? 'import',
        )
        const targetId = Number(this.insTarget.run(this.datasetId, itemId, uid, cid).lastInsertRowid)
        this.extras(targetId, u)
        for (const l of u.labels) this.label(uid, cid, l)
      })
      this.counts.units += c.units.length
    }
    this.counts.candidates += item.candidates.length
    return candidateIds
  }
}
