import type { UnitKind } from '../../shared/domain'
import type { Workspace } from '../app/workspace'
import { now } from '../store/repos/rows'
import { type ChainNode, placeEarlier } from './bundleChain'
import type { LatestKey, TargetKey } from './bundleFormat'
import { type LineageRow, placeInLineage } from './bundleLineage'

/** Units made by a merge carry this origin. */
export const MERGE_ORIGIN = 'merge'

/** Bounds how many deleted units with one text a bundle may ask to recreate. */
const MAX_REPEATS = 100

/** A unit version a merge had to recreate so the labels on it have a place. */
export interface RecreatedVersion {
  item: string
  /** The candidate a triplet, sentence or whole unit belongs to; null for a fact. */
  variant: string | null
  kind: UnitKind
  text: string
  deleted: boolean
}

interface List {
  itemId: number
  kind: UnitKind
  candidateId: number | null
}

interface LatestRow {
  id: number
  position: number
  version: number
  lineage_id: number | null
}

/**
 * Finds, in the receiving workspace, the target a bundled label belongs on. Current units are
 * found by content as before. A label on an earlier or deleted version lands on the matching
 * version here; when this workspace never had that version (its history differs, or it came
 * from an export of the edited data), the version is recreated rather than the label dropped or
 * moved onto the current text: a verdict on an old wording is not a verdict on the new one,
 * and recreating it is exactly what an edit of a labelled unit does here. Runs inside the
 * merge's transaction, so a refused bundle leaves no recreated rows behind.
 */
export class TargetResolver {
  readonly recreated: RecreatedVersion[] = []
  private readonly items
  /** ext_id → item id, read once: items have no index by ext_id, and a bundle names thousands. */
  private itemIds: Map<string, number> | null = null
  private readonly candidate
  private readonly latest
  private readonly listRows
  private readonly unitById
  private readonly insertUnit
  private readonly target
  private readonly insertTarget
  private readonly endOfList
  private readonly versionBelow
  private readonly shiftVersions

  constructor(
    private readonly ws: Workspace,
    private readonly datasetId: number,
  ) {
    const db = ws.db
    this.items = db.prepare('SELECT ext_id, id FROM items WHERE dataset_id = ? ORDER BY position DESC')
    this.candidate = db.prepare('SELECT id FROM candidates WHERE item_id = ? AND variant = ?')
    this.latest = db.prepare(
      `SELECT id, position, version, lineage_id FROM units
       WHERE item_id = @itemId AND kind = @kind AND candidate_id IS @candidateId AND text = @text
         AND superseded_by IS NULL AND (deleted_at IS NOT NULL) = @deleted
       ORDER BY position, id LIMIT 1 OFFSET @occurrence`,
    )
    this.listRows = db.prepare(
      `SELECT id, text, origin_text AS originText, superseded_by AS supersededBy, lineage_id AS lineageId
       FROM units WHERE item_id = ? AND kind = ? AND candidate_id IS ?`,
    )
    this.unitById = db.prepare('SELECT id, position, version, lineage_id FROM units WHERE id = ?')
    this.insertUnit = db.prepare(
      `INSERT INTO units (item_id, candidate_id, kind, position, text, triplet, origin, version, lineage_id,
         superseded_by, deleted_at, created_at, origin_text)
       VALUES (@itemId, @candidateId, @kind, @position, @text, @triplet, '${MERGE_ORIGIN}', @version, @lineage,
         @supersededBy, @deletedAt, @at, @originText)`,
    )
    this.target = db.prepare('SELECT id FROM targets WHERE unit_id = ? AND candidate_id = ?')
    this.insertTarget = db.prepare(
      'INSERT INTO targets (dataset_id, item_id, unit_id, candidate_id) VALUES (?, ?, ?, ?)',
    )
    this.versionBelow = db.prepare(
      'SELECT COALESCE(MAX(version), 0) AS v FROM units WHERE lineage_id = ? AND version < ?',
    )
    this.shiftVersions = db.prepare(
      'UPDATE units SET version = version + ? WHERE lineage_id = ? AND version >= ?',
    )
    this.endOfList = db.prepare(
      'SELECT COALESCE(MAX(position), -1) + 1 AS p FROM units WHERE item_id = ? AND kind = ? AND candidate_id IS ?',
    )
  }

  /** The list (item, kind, candidate) a bundled label's unit belongs to, if this workspace has it. */
  private listOf(key: TargetKey): { list: List; candidateId: number } | null {
    if (!this.itemIds) {
      const rows = this.items.all(this.datasetId) as { ext_id: string; id: number }[]
      // Read last position first, so a repeated ext_id resolves to its first item.
      this.itemIds = new Map(rows.map((r) => [r.ext_id, r.id]))
    }
    const itemId = this.itemIds.get(key.item)
    if (itemId === undefined) return null
    const candidate = this.candidate.get(itemId, key.variant) as { id: number } | undefined
    if (!candidate) return null
    return {
      list: { itemId, kind: key.kind, candidateId: key.kind === 'fact' ? null : candidate.id },
      candidateId: candidate.id,
    }
  }

  private targetOf(list: List, unitId: number, candidateId: number): number {
    const found = this.target.get(unitId, candidateId) as { id: number } | undefined
    if (found) return found.id
    // A fact version replaced before this candidate existed never had a target in it.
    return Number(this.insertTarget.run(this.datasetId, list.itemId, unitId, candidateId).lastInsertRowid)
  }

  /**
   * The target for a label of a version 3 bundle, named by its lineage (export/bundleLineage.ts).
   * The version lands on the same version here; one this workspace never had (an edit made
   * there, or a unit added there) is recreated without changing which units are current here:
   * under the lineage's latest version as an earlier one, or, for a lineage this workspace
   * lacks, as a deleted unit that can be restored.
   */
  resolveByLineage(key: TargetKey & { lineage: NonNullable<TargetKey['lineage']> }): number | null {
    const at = this.listOf(key)
    if (!at) return null
    const { list, candidateId } = at
    const where = { item: key.item, variant: key.kind === 'fact' ? null : key.variant, kind: key.kind }
    for (let made = 0; ; made++) {
      const rows = this.listRows.all(list.itemId, list.kind, list.candidateId) as LineageRow[]
      const place = placeInLineage(rows, key.lineage, key.unit)
      if ('found' in place) return this.targetOf(list, place.found, candidateId)
      if (made >= MAX_REPEATS)
        throw new Error(
          `it names version #${key.lineage.repeat + 1} of unit #${key.lineage.occurrence + 1} with the same wording; more than ${MAX_REPEATS} such versions is not believable`,
        )
      const triplet = key.triplet ?? null
      if ('makeLineage' in place) {
        this.makeDeleted(
          list,
          where,
          key.unit,
          key.unit === key.lineage.unit ? null : key.lineage.unit,
          triplet,
        )
        continue
      }
      // Numbered just below the latest version, which moves up one.
      const latest = this.unitById.get(place.makeVersion.under) as LatestRow
      const lineage = latest.lineage_id ?? latest.id
      const from = (this.versionBelow.get(lineage, latest.version) as { v: number }).v
      this.shiftVersions.run(1, lineage, latest.version)
      this.make(list, where, {
        text: key.unit,
        originText: null,
        triplet,
        position: latest.position,
        version: from + 1,
        lineage,
        supersededBy: latest.id,
        deletedAt: null,
      })
    }
  }

  /** The target id for a bundled label, or null when this workspace has no place for it. */
  resolve(key: TargetKey): number | null {
    const at = this.listOf(key)
    if (!at) return null
    const { list } = at
    const where = { item: key.item, variant: key.kind === 'fact' ? null : key.variant, kind: key.kind }
    const latestKey: LatestKey = key.earlier?.latest ?? {
      unit: key.unit,
      occurrence: key.occurrence,
      ...(key.deleted ? { deleted: true as const } : {}),
    }
    const latest = this.findLatest(list, latestKey, key.earlier ? null : (key.triplet ?? null), where)
    if (!latest) return null
    const unitId = key.earlier ? this.earlierVersion(list, latest, key, key.earlier.newer, where) : latest.id
    return this.targetOf(list, unitId, at.candidateId)
  }

  /** The row of an earlier version of `latest`, made (with any versions between) if missing. */
  private earlierVersion(
    list: List,
    latest: LatestRow,
    key: TargetKey,
    newer: string[],
    where: Omit<RecreatedVersion, 'text' | 'deleted'>,
  ): number {
    const nodes = new Map<number, ChainNode>()
    const rows = this.listRows.all(list.itemId, list.kind, list.candidateId) as LineageRow[]
    for (const r of rows) nodes.set(r.id, { id: r.id, text: r.text, supersededBy: r.supersededBy })
    const placement = placeEarlier(nodes, latest.id, { unit: key.unit, occurrence: key.occurrence, newer })
    if ('found' in placement) return placement.found
    let parent = this.unitById.get(placement.parent) as LatestRow
    // Recreated versions are numbered after the version they came from (the highest one below
    // the version that replaced them), and that version and every newer one move up to make
    // room: version lists keep reading oldest first, with no number repeated or below 1.
    const lineage = latest.lineage_id ?? latest.id
    const count = placement.texts.length
    const from = (this.versionBelow.get(lineage, parent.version) as { v: number }).v
    this.shiftVersions.run(count, lineage, parent.version)
    for (const [i, text] of placement.texts.entries()) {
      const last = i === placement.texts.length - 1
      const id = this.make(list, where, {
        text,
        originText: null,
        triplet: last ? (key.triplet ?? null) : null,
        position: latest.position,
        version: from + count - i,
        lineage: latest.lineage_id ?? latest.id,
        supersededBy: parent.id,
        deletedAt: null,
      })
      parent = this.unitById.get(id) as LatestRow
    }
    return parent.id
  }

  /** The latest unit of a chain; a deleted one this workspace lacks is recreated, deleted. */
  private findLatest(
    list: List,
    key: LatestKey,
    triplet: TargetKey['triplet'],
    where: Omit<RecreatedVersion, 'text' | 'deleted'>,
  ): LatestRow | null {
    const params = { ...list, text: key.unit, deleted: key.deleted ? 1 : 0, occurrence: key.occurrence }
    let row = this.latest.get(params) as LatestRow | undefined
    if (!row && key.deleted && key.occurrence >= MAX_REPEATS)
      throw new Error(
        `it names deleted unit #${key.occurrence + 1} with the same text; more than ${MAX_REPEATS} such units is not believable`,
      )
    // Current units are proven alike by the content hash; only deleted ones can be missing.
    // Every deleted unit with this text before the wanted one existed there too, so all are made.
    while (!row && key.deleted) {
      this.makeDeleted(list, where, key.unit, null, triplet ?? null)
      row = this.latest.get(params) as LatestRow | undefined
    }
    return row ?? null
  }

  /** A unit this workspace lacks, made deleted at the end of its list, a lineage of its own: restorable. */
  private makeDeleted(
    list: List,
    where: Omit<RecreatedVersion, 'text' | 'deleted'>,
    text: string,
    originText: string | null,
    triplet: readonly string[] | null,
  ): void {
    const { p } = this.endOfList.get(list.itemId, list.kind, list.candidateId) as { p: number }
    const id = this.make(list, where, {
      text,
      originText,
      triplet,
      position: p,
      version: 1,
      lineage: null,
      supersededBy: null,
      deletedAt: now(),
    })
    this.ws.db.prepare('UPDATE units SET lineage_id = id WHERE id = ?').run(id)
  }

  private make(
    list: List,
    where: Omit<RecreatedVersion, 'text' | 'deleted'>,
    u: {
      text: string
      originText: string | null
      triplet: readonly string[] | null
      position: number
      version: number
      lineage: number | null
      supersededBy: number | null
      deletedAt: string | null
    },
  ): number {
    const info = this.insertUnit.run({
      ...list,
      ...u,
      triplet: u.triplet ? JSON.stringify(u.triplet) : null,
      at: now(),
    })
    const id = Number(info.lastInsertRowid)
    this.ws.content.addTargets(id, list.itemId, list.kind, list.candidateId)
    this.recreated.push({ ...where, text: u.text, deleted: u.deletedAt !== null })
    return id
  }
}
