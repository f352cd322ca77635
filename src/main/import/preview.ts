import type { ImportFormat, Mapping, PresetName } from '../../shared/importMapping'
import { chooseConverter } from './converter'
import type { Row } from './normalized'
import { detectPreset } from './presets'
import { summevalDimensions } from './presets/nested'
import { openRows } from './sources'

export interface PreviewOptions {
  format?: ImportFormat
  preset?: PresetName
  mapping?: Mapping
  rows?: number
  /** The file is the start of a longer one (sources/index.ts `OpenRowsOptions`). */
  partial?: boolean
}

export interface Preview {
  format: string
  preset: PresetName | null
  /** The layout the columns match, whatever was asked for. */
  detected: PresetName | null
  columns: string[]
  rows: Record<string, unknown>[]
  mapping: Mapping | null
  /**
   * The part ended before its first whole row (a FactLab export's first row carries the
   * guidelines and the plan, over a megabyte with a long plan): nothing to show yet, send more.
   */
  needsMore: boolean
  /** Read as SummEval: the rating dimensions the shown rows score, one of which becomes the gold. */
  dimensions: string[]
}

/** Text past this is cut in the preview's cells: the table shows a few lines of each. */
export const PREVIEW_CELL_CHARS = 2000

/** A row as the preview shows it: long text (the guidelines, the plan) cut, so the reply stays small. */
function shown(row: Row): Row {
  const out: Row = {}
  for (const [k, v] of Object.entries(row)) {
    const text = typeof v === 'string' ? v : null
    out[k] = text !== null && text.length > PREVIEW_CELL_CHARS ? `${text.slice(0, PREVIEW_CELL_CHARS)}…` : v
  }
  return out
}

/**
 * The first rows of a file and what the importer would make of them, for the import wizard's
 * live preview. Reads only as far as it shows.
 */
export async function previewFile(file: string, opts: PreviewOptions = {}): Promise<Preview> {
  const partial = opts.partial ?? false
  const source = await openRows(file, opts.format, { partial })
  const limit = opts.rows ?? 20
  const rows: Row[] = []
  let columns: string[] | null = null
  try {
    for await (const ev of source.events) {
      if (ev.kind === 'header') columns = ev.columns
      else if (ev.kind === 'row') rows.push(shown(ev.row))
      if (rows.length >= limit) break
    }
  } finally {
    await source.events.return(undefined)
  }
  if (columns === null) {
    const seen = new Set<string>()
    for (const r of rows) for (const k of Object.keys(r)) seen.add(k)
    columns = [...seen]
  }
  const preset = opts.mapping ? null : (opts.preset ?? detectPreset(columns))
  let mapping: Mapping | null = opts.mapping ?? null
  // The wizard shows a preset's mapping as a starting point; nested layouts have none.
  if (!mapping && preset) {
    try {
      mapping = chooseConverter(file, columns, { preset }).mapping
    } catch {
      mapping = null
    }
  }
  // What the columns look like, whatever was chosen: the wizard shows both apart.
  return {
    format: source.format,
    preset,
    detected: detectPreset(columns),
    columns,
    rows,
    mapping,
    needsMore: partial && rows.length === 0,
    dimensions: preset === 'summeval' ? summevalDimensions(columns, rows) : [],
  }
}
