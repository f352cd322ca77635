import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { z } from 'zod'
import type { Dataset } from '../../shared/domain'
import { EvidenceSpan } from '../../shared/domain'
import { checkVerdict } from '../../shared/labelSchemas'
import { countOf } from '../../shared/plural'
import { ServiceError } from '../app/errors'
import type { Workspace } from '../app/workspace'
import { takeGuidelinesRead } from '../guidelines/guidelines'
import type { LabelAction, MergeMark } from '../labels/labels'
import { MergeTargetLabels } from '../labels/merge'
import { checkBundlePackage, markPackageReturned } from '../projects/packageReturn'
import type { Db } from '../store/connection'
import { ensureAnnotator, sourceNamed } from '../store/repos/annotators'
import { getDataset, listDatasets } from '../store/repos/datasets'
import { now, parseJson } from '../store/repos/rows'
import {
  BUNDLE_VERSION,
  BundleHeader,
  BundleLabel,
  type LabelState,
  READABLE_VERSIONS,
  sameState,
  type TargetKey,
} from './bundleFormat'
import { type RecreatedVersion, TargetResolver } from './bundleTargets'
import { datasetContentHash } from './contentHash'
import { datasetHasOrigin } from './datasetOrigin'

export interface MergeReport {
  dataset: string
  annotator: string
  /** Targets this annotator had no label on here. */
  added: number
  /** Targets where the bundle's label was newer and replaced the local one. */
  updated: number
  unchanged: number
  /** Targets where the local label was newer; the bundle's state went to the history only. */
  kept_local: number
  /**
   * Labels on unit versions that are not current (replaced by an edit, or deleted): there, for
   * bundles before version 3; here, for later ones. They are also counted in the four figures above.
   */
  earlier_versions: number
  /** Unit versions this workspace did not have, recreated so the labels on them have a place. */
  recreated_versions: number
  recreated: RecreatedVersion[]
}

const Evidence = z.array(EvidenceSpan)

interface ParsedBundle {
  header: BundleHeader
  labels: { line: number; label: BundleLabel }[]
}

function parseLine<T extends z.ZodType>(schema: T, text: string, where: string): z.infer<T> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new Error(`${where}: not valid JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw new Error(`${where}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`)
  return parsed.data
}

/** A bundle from a newer FactLab would be misread, so it is named as such rather than half-parsed. */
function refuseNewerVersion(first: string, file: string): void {
  let version: unknown
  try {
    version = (JSON.parse(first) as { version?: unknown } | null)?.version
  } catch {
    return // parseLine reports the broken line
  }
  if (typeof version === 'number' && version > BUNDLE_VERSION)
    throw new Error(
      `${file} was written by a newer FactLab (bundle version ${version}); this one reads bundle versions ${READABLE_VERSIONS.join(' and ')}. Update FactLab to merge it`,
    )
}

/** Reads and validates a whole bundle before anything is written. */
export function readBundle(file: string): ParsedBundle {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new Error(`Cannot read bundle ${file}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const lines = text.split(/\r?\n/)
  const first = lines[0] ?? ''
  if (!first.includes('factlab-bundle')) throw new Error(`${file} is not a FactLab annotation bundle`)
  refuseNewerVersion(first, file)
  const header = parseLine(BundleHeader, first, `${file}:1`)
  const labels: ParsedBundle['labels'] = []
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]!.trim() === '') continue
    const label = parseLine(BundleLabel, lines[i]!, `${file}:${i + 1}`)
    if (header.version === 1 && (label.target.earlier || label.target.deleted))
      throw new Error(`${file}:${i + 1}: a version 1 bundle carries labels on current units only`)
    labels.push({ line: i + 1, label })
  }
  if (labels.length !== header.labels)
    throw new Error(
      `${file} announces ${countOf(header.labels, 'label')} but holds ${labels.length}; it looks truncated or edited`,
    )
  return { header, labels }
}

/** A content hash as messages show it. */
const short = (h: string) => h.slice(0, 12)

/**
 * The dataset a version 3 bundle belongs to: the one of its name that comes from the same import
 * (export/datasetOrigin.ts), or failing the name, any that does. Units edited, split, deleted or
 * added on either side since do not matter; other items, answers or imported units do.
 */
function matchOrigin(db: Db, header: BundleHeader, datasetId?: number): Dataset {
  const want = header.dataset
  const hashes = [want.contentHash, ...(want.originHash ? [want.originHash] : [])]
  const theirs = short(want.originHash ?? want.contentHash)
  const fits = (id: number) => datasetHasOrigin(db, id, hashes)
  if (datasetId !== undefined) {
    const ds = getDataset(db, datasetId)
    if (!fits(ds.id))
      throw new Error(
        `This bundle is for dataset "${want.name}" (content ${theirs}), but dataset "${ds.name}" here has content ${short(datasetContentHash(db, ds.id))}: they do not hold the same items, answers and imported units, so the labels cannot be matched. Nothing was merged`,
      )
    return ds
  }
  const all = listDatasets(db)
  const named = all.find((d) => d.name === want.name)
  if (named && fits(named.id)) return named
  const same = all.find((d) => d !== named && fits(d.id))
  if (same) return same
  throw new Error(
    named
      ? `This bundle is for dataset "${want.name}" (content ${theirs}), but dataset "${named.name}" here has different content (${short(datasetContentHash(db, named.id))}): it was not imported from the same file, nor opened from a package of this one. Nothing was merged`
      : `This bundle is for dataset "${want.name}" (content ${theirs}), and this workspace has no dataset with that name or content. Import the same data first. Nothing was merged`,
  )
}

/**
 * The dataset a version 1 or 2 bundle belongs to: same name and content, or failing the name,
 * same content. Those bundles name units by their content now, so nothing looser would do.
 */
function matchDataset(db: Db, header: BundleHeader, datasetId?: number): Dataset {
  const want = header.dataset
  if (datasetId !== undefined) {
    const ds = getDataset(db, datasetId)
    const hash = datasetContentHash(db, ds.id)
    if (hash !== want.contentHash)
      throw new Error(
        `This bundle is for dataset "${want.name}" (content ${short(want.contentHash)}), but dataset "${ds.name}" here has content ${short(hash)}: they do not hold the same items, answers and units, so the labels cannot be matched`,
      )
    return ds
  }
  const all = listDatasets(db)
  const named = all.find((d) => d.name === want.name)
  const namedHash = named ? datasetContentHash(db, named.id) : null
  if (named && namedHash === want.contentHash) return named
  const same = all.find((d) => d !== named && datasetContentHash(db, d.id) === want.contentHash)
  if (same) return same
  throw new Error(
    named
      ? `This bundle is for dataset "${want.name}" (content ${short(want.contentHash)}), but dataset "${named.name}" here has different content (${short(namedHash!)}): were the two imported from the same file, with the same unit edits? Nothing was merged`
      : `This bundle is for dataset "${want.name}" (content ${short(want.contentHash)}), and this workspace has no dataset with that name or content. Import the same data first. Nothing was merged`,
  )
}

/** Actions a label is given with; a bundle from before migration 0070 may still say 'merge'. */
const ORIGINAL_ACTIONS: readonly LabelAction[] = ['set', 'clear', 'import']

const newer = (a: string, b: string) => {
  const ta = Date.parse(a)
  const tb = Date.parse(b)
  return Number.isNaN(ta) || Number.isNaN(tb) ? a > b : ta > tb
}

/**
 * Merges a bundle of one annotator's labels into this workspace, in one transaction: a bad or
 * foreign bundle changes nothing. New labels are added; on a conflict the newer label becomes
 * current and the other state is kept in the label history (action 'merge'). Every state the
 * bundle carries in its history is kept too, once: merging the same bundle again is a no-op.
 * Labels on earlier or deleted unit versions land on the same versions here, recreated where
 * this workspace never had them (see TargetResolver).
 */
export async function mergeBundle(
  ws: Workspace,
  file: string,
  opts: { datasetId?: number } = {},
): Promise<MergeReport> {
  const db = ws.db
  const { header, labels } = readBundle(file)
  const byLineage = header.version >= 3
  const dataset = byLineage
    ? matchOrigin(db, header, opts.datasetId)
    : matchDataset(db, header, opts.datasetId)
  const fromPackage = checkBundlePackage(db, header, dataset.id)
  // A bundle is one person's labels: under a source's name they would be mixed into, and could
  // replace, the dataset's reference labels. Refused before anything is written.
  const source = sourceNamed(db, header.annotator.name)
  if (source !== null)
    throw new ServiceError(
      'conflict',
      `This bundle carries labels under “${header.annotator.name.trim()}”, but “${source}” is a dataset's reference labels (a label source) here, not a person: a person's labels may not be merged into a source. Nothing was merged`,
    )
  // Every verdict, history included, must fit the dataset's schema before anything is written.
  for (const { line, label } of labels)
    for (const v of [label.verdict, ...label.history.map((h) => h.verdict)]) {
      const problem = v === null ? null : checkVerdict(dataset.labelSchema, v)
      if (problem) throw new Error(`${file}:${line}: ${problem} (the verdicts of dataset "${dataset.name}")`)
    }
  const here = new MergeTargetLabels(db)
  // Each state keeps the action it was given with; the merge is recorded beside it.
  const mark: MergeMark = { at: now(), from: basename(file) }
  const actionOf = (s: Pick<LabelState, 'verdict'>): LabelAction => (s.verdict === null ? 'clear' : 'set')
  const report: MergeReport = {
    dataset: dataset.name,
    annotator: header.annotator.name,
    added: 0,
    updated: 0,
    unchanged: 0,
    kept_local: 0,
    earlier_versions: 0,
    recreated_versions: 0,
    recreated: [],
  }
  const describe = (k: TargetKey) =>
    `item "${k.item}", variant "${k.variant}", ${k.kind} "${k.unit.slice(0, 60)}"${k.occurrence ? ` (#${k.occurrence + 1})` : ''}`

  db.transaction(() => {
    const annotatorId = ensureAnnotator(db, header.annotator.name).id
    const resolver = new TargetResolver(ws, dataset.id)
    // Where a version 3 bundle's label landed here: what the lead reads is this workspace's units.
    const currentUnit = db.prepare(
      `SELECT u.superseded_by IS NULL AND u.deleted_at IS NULL AS c FROM targets t JOIN units u ON u.id = t.unit_id
       WHERE t.id = ?`,
    )
    const isCurrent = (targetId: number) => (currentUnit.get(targetId) as { c: number }).c === 1
    for (const { line, label } of labels) {
      let targetId: number | null
      try {
        const { lineage } = label.target
        if (byLineage && !lineage) throw new Error('a version 3 bundle names every unit by its lineage')
        targetId =
          byLineage && lineage
            ? resolver.resolveByLineage({ ...label.target, lineage })
            : resolver.resolve(label.target)
      } catch (error) {
        throw new Error(`${file}:${line}: ${error instanceof Error ? error.message : String(error)}`)
      }
      if (targetId === null)
        throw new Error(`${file}:${line}: no such target here (${describe(label.target)})`)
      const target = { id: targetId }
      if (byLineage ? !isCurrent(target.id) : label.target.earlier || label.target.deleted)
        report.earlier_versions++
      const known: (Omit<LabelState, 'seconds'> & { at: string })[] = here
        .history(target.id, annotatorId)
        .map((h) => ({ ...h, evidence: parseJson(Evidence, h.evidence, 'label_history.evidence') }))
      // Each state keeps the guidelines version it was given under; one the bundle does not name
      // (null, or an older bundle's history) stays unknown rather than taking the latest here.
      const keep = (s: LabelState, at: string, action: string, version: number | null | undefined) => {
        if (known.some((h) => h.at === at && sameState(h, s))) return
        here.appendHistory(
          target.id,
          annotatorId,
          s.verdict,
          JSON.stringify(s.evidence),
          s.note,
          s.seconds,
          at,
          action,
          mark,
          version ?? null,
        )
        known.push({ verdict: s.verdict, evidence: s.evidence, note: s.note, at })
      }
      const mine = here.current(target.id, annotatorId)
      const mineState = mine && { ...mine, evidence: parseJson(Evidence, mine.evidence, 'labels.evidence') }
      const takeBundle =
        !mineState || (!sameState(mineState, label) && newer(label.updatedAt, mineState.updated_at))
      for (const h of label.history)
        if (!(takeBundle && h.at === label.updatedAt && sameState(h, label)))
          keep(h, h.at, h.action, h.guidelinesVersion)
      // The action the bundle's current state was given with, from its own history.
      const bundleAction =
        ORIGINAL_ACTIONS.find(
          (a) => a === label.history.find((h) => h.at === label.updatedAt && sameState(h, label))?.action,
        ) ?? actionOf(label)
      if (!mineState) report.added++
      else if (sameState(mineState, label)) report.unchanged++
      else if (takeBundle) {
        // The local state normally sits in the history already; make sure before replacing it.
        keep(mineState, mineState.updated_at, actionOf(mineState), mineState.guidelines_version)
        report.updated++
      } else {
        keep(label, label.updatedAt, bundleAction, label.guidelinesVersion)
        report.kept_local++
      }
      if (takeBundle)
        ws.labels.save(
          {
            targetId: target.id,
            annotatorId,
            verdict: label.verdict,
            evidence: label.evidence,
            note: label.note,
            // save() adds seconds to the stored total; this leaves the larger of the two totals.
            seconds: Math.max(0, label.seconds - (mineState?.seconds ?? 0)),
            // The version it was given under on the laptop (a package carries the lead's numbers).
            ...(label.guidelinesVersion ? { guidelinesVersion: label.guidelinesVersion } : {}),
          },
          bundleAction,
          label.updatedAt,
          label.guidelinesVersion ? mark : { ...mark, versionUnknown: true },
        )
    }
    report.recreated = resolver.recreated
    report.recreated_versions = resolver.recreated.length
    if (fromPackage) markPackageReturned(db, fromPackage, labels.length)
    // Which guidelines she read there, so the lead's Project view shows it.
    if (header.guidelinesRead) takeGuidelinesRead(db, dataset.id, annotatorId, header.guidelinesRead)
  })()
  return report
}
