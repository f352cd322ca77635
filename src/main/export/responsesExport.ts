import { existsSync, writeFileSync } from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'
import { countOf } from '../../shared/plural'
import type { Workspace } from '../app/workspace'
import type { Db } from '../store/connection'
import { perResponseKind, perResponseRows, type ResponseRow } from './perResponse'
import { writeRefcheckerRelease } from './refcheckerRelease'
import { csvRecord, writeFileAtomically } from './sink'

/** Writes per-response rows as JSON lines or CSV (the header from the first row's keys). */
export function writeRows(file: string, rows: readonly ResponseRow[]): void {
  const csv = extname(file).toLowerCase() === '.csv'
  const names = rows[0] ? Object.keys(rows[0]) : []
  writeFileAtomically(file, (sink) => {
    if (csv) sink.write(csvRecord(names))
    for (const r of rows)
      if (csv)
        sink.write(
          csvRecord(
            names.map(
              (n) => (typeof r[n] === 'boolean' ? String(r[n]) : (r[n] ?? null)) as string | number | null,
            ),
          ),
        )
      else sink.write(`${JSON.stringify(r)}\n`)
  })
}

/**
 * Beside a dataset export: RefChecker per-response figures or DCR per-candidate scores from the
 * human labels, in `responses.jsonl` (or .csv). Other schemas have none; nothing is written.
 */
export function writeResponses(db: Db, datasetId: number, outDir: string, kind: 'jsonl' | 'csv'): string[] {
  const rows = perResponseRows(db, datasetId, null)
  if (!rows) return []
  const file = join(outDir, `responses.${kind}`)
  writeRows(file, rows)
  return [file]
}

/**
 * Beside a run's verdicts: the run's per-response figures (RefChecker) or per-candidate DCR
 * scores, in `<name>.responses.<ext>` next to the verdicts file.
 */
export function writeRunResponses(ws: Workspace, runId: number, out: string): string | null {
  const run = ws.db.prepare('SELECT dataset_id AS datasetId FROM runs WHERE id = ?').get(runId) as
    | { datasetId: number }
    | undefined
  if (!run || !perResponseKind(ws.db, run.datasetId)) return null
  const rows = perResponseRows(ws.db, run.datasetId, runId)
  if (!rows) return null
  const ext = extname(out)
  // Like every export, never over an existing file: a second export gets a numbered name.
  const name = (k: number) =>
    join(dirname(out), `${basename(out, ext)}.responses${k > 1 ? `-${k}` : ''}${ext || '.jsonl'}`)
  let k = 1
  while (existsSync(name(k))) k++
  writeRows(name(k), rows)
  return name(k)
}

/** The RefChecker release layout, with a short README saying what the folder holds. */
export function exportRefcheckerRelease(
  db: Db,
  datasetId: number,
  outDir: string,
): { files: string[]; labels: number } {
  const { files, rows, labels } = writeRefcheckerRelease(db, datasetId, outDir)
  const readme = join(outDir, 'README.md')
  writeFileSync(
    readme,
    [
      '# RefChecker annotations exported by FactLab',
      '',
      `${countOf(files.length, 'file')}, ${countOf(rows, 'response')}, in the layout RefChecker released its human annotations in:`,
      '`<setting>/<source>_<model>_answers.json`, each a JSON list of',
      '`{id, response, <extractor>_response_kg: [{triplet: [subject, predicate, object], human_label}]}`.',
      'The label is the gold verdict (adjudicated or imported where recorded, otherwise the',
      'annotators’ majority); `null` where the annotators tie or nobody labelled the triplet.',
      'Question and reference appear only where the dataset has them.',
      '',
    ].join('\n'),
  )
  return { files: [...files, readme], labels }
}
