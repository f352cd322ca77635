/**
 * Unit versions named by their lineage, for bundles of version 3. A lineage is every version of
 * one unit (rows sharing `lineage_id`); its first row came with the import (or the package), so
 * its first wording is what both workspaces share however either edited, split, deleted or
 * added units since. A label's version is named by that first wording, which of the list's
 * lineages answering to it this is, and which version with the label's text it is: enough to
 * find the same version on the other side, or the lineage to recreate it in.
 */

/** One unit row of a list (an item's facts, or one candidate's units of one kind). */
export interface LineageRow {
  id: number
  text: string
  /** The text before the row's first edit in place, if it was edited so. */
  originText: string | null
  supersededBy: number | null
  lineageId: number | null
}

export interface LineageKey {
  /** The lineage's first wording. */
  unit: string
  /** 0 for the first lineage of the list (oldest first) that ever had that wording, 1 for the next, … */
  occurrence: number
  /** 0 for the oldest version of the lineage with the label's text, 1 for the next, … */
  repeat: number
}

/** Where a label goes: a row, or what to recreate first (then look again). */
export type LineagePlace =
  | { found: number }
  /** The lineage is missing here: make one (deleted, at the end of the list). */
  | { makeLineage: true }
  /** The lineage lacks the version: make one under its latest row. */
  | { makeVersion: { under: number } }

const anchorOf = (r: LineageRow) => r.lineageId ?? r.id

function lineages(rows: readonly LineageRow[]): Map<number, LineageRow[]> {
  const out = new Map<number, LineageRow[]>()
  for (const r of [...rows].sort((a, b) => a.id - b.id)) {
    const anchor = anchorOf(r)
    const group = out.get(anchor)
    if (group) group.push(r)
    else out.set(anchor, [r])
  }
  return new Map([...out].sort((a, b) => a[0] - b[0]))
}

/** The first wording: the anchor row's text before any edit in place (the oldest row failing that). */
function firstWording(anchor: number, group: readonly LineageRow[]): string {
  const first = group.find((r) => r.id === anchor) ?? group[0]!
  return first.originText ?? first.text
}

/** Lineages (oldest first) that ever had this wording, first or later. */
function answering(all: Map<number, LineageRow[]>, wording: string): number[] {
  return [...all]
    .filter(([, group]) => group.some((r) => r.text === wording || r.originText === wording))
    .map(([anchor]) => anchor)
}

/** The key of row `unitId` among `rows` (the rows of its list). */
export function lineageKey(rows: readonly LineageRow[], unitId: number): LineageKey {
  const row = rows.find((r) => r.id === unitId)
  if (!row) throw new Error(`Unit ${unitId} is not in its own list`)
  const all = lineages(rows)
  const anchor = anchorOf(row)
  const group = all.get(anchor)!
  const unit = firstWording(anchor, group)
  return {
    unit,
    occurrence: answering(all, unit).indexOf(anchor),
    repeat: group.filter((r) => r.text === row.text && r.id < row.id).length,
  }
}

/**
 * Where the version with `text` that `key` names lies among `rows`. A merge makes what is
 * missing and asks again; rows it makes are always newer than the ones it found, so a second
 * merge of the same bundle finds them and makes nothing.
 */
export function placeInLineage(rows: readonly LineageRow[], key: LineageKey, text: string): LineagePlace {
  const all = lineages(rows)
  const anchor = answering(all, key.unit)[key.occurrence]
  if (anchor === undefined) return { makeLineage: true }
  const group = all.get(anchor)!
  const same = group.filter((r) => r.text === text)
  if (same.length > key.repeat) return { found: same[key.repeat]!.id }
  const latest = group.find((r) => r.supersededBy === null) ?? group[group.length - 1]!
  return { makeVersion: { under: latest.id } }
}
