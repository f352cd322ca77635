import { type AgreementColumns, agreementFromLabels } from './agreementCodes'
import type { DatasetAgreement } from './agreementService'
import { disagreementHits, labelNextPicks } from './judgeLists'
import type { BackgroundLists } from './keptLists'
import { NARROWING_POINTS, type NarrowingRunRow, narrowingFromLatest } from './narrowingSeries'

/**
 * What a worker thread needs to work out the Compare view's lists (keptLists.ts) from a
 * snapshot, and the working out itself. Only plain typed arrays cross: the targets' gold,
 * stored gold, each target's latest label time, and each run's statuses and verdicts over the span
 * it reached (a tenth of a million targets each, instead of a million). The worker's whole code:
 * it imports nothing that loads the store, SQLite or zod (compareInBackground.ts makes the input).
 */
export interface ListsInput {
  goldBin: Int8Array
  stored: Int32Array
  variant: Uint16Array
  /** Each target's latest label time (narrowing.ts); null when the labels carry no times (the chart is drawn on the main thread). */
  latest: Float64Array<ArrayBuffer> | null
  runs: (NarrowingRunRow & { from: number; status: Uint8Array; bin: Int8Array })[]
}

/** The longest lists the views ask for first (label-next 25, disagreements 200, by default 50 and 200). */
export const LABEL_NEXT_KEPT = 50
export const DISAGREEMENTS_KEPT = 200

/** The lists, as the main thread's own passes would give them from the same snapshot. */
export function computeLists(input: ListsInput): BackgroundLists {
  // Each run's columns over the span it reached, as the main thread's passes read them.
  const columns = new Map(
    input.runs.map((r) => [
      r.id,
      { from: r.from, to: r.from + r.status.length, status: r.status, bin: r.bin },
    ]),
  )
  // The disagreements are listed by run id (snapshots list their runs so already).
  const cols = [...input.runs].sort((a, b) => a.id - b.id).map((r) => columns.get(r.id)!)
  return {
    narrowing: input.latest
      ? narrowingFromLatest(input, input.latest, input.runs, columns, NARROWING_POINTS)
      : null,
    labelNext: { limit: LABEL_NEXT_KEPT, picks: labelNextPicks(input.goldBin, cols, LABEL_NEXT_KEPT) },
    disagreements: {
      limit: DISAGREEMENTS_KEPT,
      ...disagreementHits(input, cols, -1, DISAGREEMENTS_KEPT),
    },
  }
}

/**
 * What a worker thread needs to work out the agreement figures of a categorical dataset: the
 * label columns (on shared memory: sharedColumns.ts) and the annotators' names, handed over as
 * soon as the labels are read.
 */
export interface AgreementInput {
  columns: AgreementColumns
  names: [id: number, name: string][]
  /** The dataset's own reference labels, kept out of the overall figures. */
  sources: number[]
}

/** The agreement figures, as the main thread's agreementFromLabels gives them from the same snapshot. */
export function agreementOfInput(input: AgreementInput): DatasetAgreement {
  return agreementFromLabels(input.columns, new Map(input.names), new Set(input.sources))
}
