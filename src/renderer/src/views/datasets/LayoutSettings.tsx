import { IMPORT_FORMATS, type ImportFormat } from '../../../../shared/importMapping'
import { sizeText } from './ImportParts'

/*
 * The import dialog's settings beyond the layout, each the CLI's flag of the same meaning:
 * `--format` for every file, `--second-file` for RefChecker, `--dimension` for SummEval. A
 * layout's own setting shows only while the file is read with that layout.
 */

const FORMAT_WORDS: Record<ImportFormat, string> = {
  jsonl: 'JSON lines (one record a line)',
  json: 'JSON array',
  csv: 'CSV (comma-separated)',
  tsv: 'TSV (tab-separated)',
  parquet: 'Parquet',
}

/** A format in the words the format picker shows it. */
export function formatWords(format: ImportFormat): string {
  return FORMAT_WORDS[format]
}

/** All or nothing, or every good row with the bad ones listed (the CLI's --skip-bad-rows). */
export function SkipBadRowsField({
  checked,
  onChange,
}: {
  checked: boolean
  onChange: (on: boolean) => void
}) {
  return (
    <label className="check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      Skip bad rows (otherwise one bad row stops the import)
    </label>
  )
}

/** How the file is read: as its name and first bytes say, or as the person chooses. */
export function FormatField({
  format,
  onChange,
}: {
  format: ImportFormat | null
  onChange(format: ImportFormat | null): void
}) {
  return (
    <div className="field">
      <label htmlFor="wiz-format">File format</label>
      <select
        id="wiz-format"
        value={format ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? null : (e.target.value as ImportFormat))}
      >
        <option value="">As its name and first bytes say</option>
        {IMPORT_FORMATS.map((f) => (
          <option key={f} value={f}>
            {FORMAT_WORDS[f]}
          </option>
        ))}
      </select>
    </div>
  )
}

/** RefChecker's annotation files carry no question or reference: a second file may give them. */
export function SecondFileField({
  file,
  onChange,
}: {
  file: File | null
  onChange(file: File | null): void
}) {
  return (
    <fieldset className="field">
      <legend>Questions and references (optional)</legend>
      {file && (
        <span data-testid="second-file">
          <strong>{file.name}</strong> · {sizeText(file.size)}
        </span>
      )}
      <div className="second-file">
        <label className="pseudo-button">
          <input
            className="visually-hidden"
            type="file"
            accept=".json,.jsonl,.csv,.tsv,.parquet,.txt"
            aria-label="Second file with the questions and references"
            onChange={(e) => {
              onChange(e.target.files?.[0] ?? null)
              // The same file chosen again after removing it still counts as a choice.
              e.target.value = ''
            }}
          />
          {file ? 'Choose another…' : 'Choose second file…'}
        </label>
        {file && (
          <button type="button" onClick={() => onChange(null)}>
            Remove
          </button>
        )}
      </div>
      <p className="muted small">
        RefChecker’s annotation files hold the answers and their triplets only. A file with an id, a question
        and a reference per row adds them; without it, the items have no reference.
      </p>
    </fieldset>
  )
}

/** SummEval rates each summary on several dimensions: the chosen one becomes the labels and the gold. */
export function DimensionField({
  dimensions,
  dimension,
  onChange,
}: {
  /** The dimensions the preview's rows rate. */
  dimensions: readonly string[]
  dimension: string | null
  onChange(dimension: string): void
}) {
  if (dimensions.length === 0)
    return (
      <p className="error-text" role="alert">
        The first rows hold no expert or crowd ratings, so there is no dimension to score. Check that this is
        a SummEval file.
      </p>
    )
  return (
    <div className="field">
      <label htmlFor="wiz-dimension">Scored dimension</label>
      <select id="wiz-dimension" value={dimension ?? ''} onChange={(e) => onChange(e.target.value)}>
        {dimensions.map((d) => (
          <option key={d} value={d}>
            {d}
          </option>
        ))}
      </select>
      <p className="muted small">
        The experts’ ratings on this dimension become the labels and the gold. Every rating stays on each
        summary as released.
      </p>
    </div>
  )
}

/** The dimension to start from: the one chosen if the file rates it, else consistency (the CLI's default), else the first. */
export function startingDimension(dimensions: readonly string[], chosen: string | null): string | null {
  if (chosen !== null && dimensions.includes(chosen)) return chosen
  if (dimensions.includes('consistency')) return 'consistency'
  return dimensions[0] ?? null
}
