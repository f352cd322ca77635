import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Workspace } from '../../src/main/app/workspace'
import type { MappingInput } from '../../src/shared/importMapping'
import { holisticSchema } from '../../src/shared/labelSchemas'

/** Graded answers: two named graders' labels and some imported gold on every item. */
export const GRADED: MappingInput = {
  id: 'case',
  question: 'query',
  reference: 'gold_answer',
  candidates: [{ variant: 'bot', column: 'bot_answer' }],
  wholeUnits: true,
  labels: [
    { column: 'grader_ana', annotator: 'ana' },
    { column: 'grader_zed', annotator: 'zed' },
  ],
  gold: [{ column: 'adjudicated' }],
  labelSchema: holisticSchema(),
}

const WORDS = ['harbour', 'glacier', 'orchard', 'lantern', 'meadow', 'quarry']
const GRADES = ['pass', 'partially-pass', 'fail']

/** The CSV line of graded item `i` (line i + 2 of the file), graded with `grades`. */
export function gradedLine(i: number, grades: readonly string[] = GRADES): string {
  const w = (k: number) => WORDS[(i * 7 + k) % WORDS.length]
  return [
    `c${i}`,
    `Where is the ${w(0)} ${i}?`,
    `The ${w(1)} stands by the ${w(2)}.`,
    `Next to the ${w(3)}, item ${i}.`,
    grades[i % grades.length],
    grades[(i + 1) % grades.length],
    i % 4 === 0 ? grades[0] : '',
  ].join(';')
}

/**
 * Writes `n` graded items; `lines` replaces chosen file lines (1-based, the header is line 1)
 * to plant bad rows.
 */
export function gradedFile(
  dir: string,
  n: number,
  lines: Record<number, string> = {},
  name = 'graded.csv',
  grades: readonly string[] = GRADES,
) {
  const out = ['case;query;gold_answer;bot_answer;grader_ana;grader_zed;adjudicated']
  for (let i = 0; i < n; i++) out.push(gradedLine(i, grades))
  for (const [line, text] of Object.entries(lines)) out[Number(line) - 1] = text
  const file = join(dir, name)
  writeFileSync(file, `${out.join('\n')}\n`)
  return file
}

const SNAPSHOT_TABLES = [
  'datasets',
  'dataset_imports',
  'items',
  'candidates',
  'units',
  'targets',
  'annotators',
  'labels',
  'label_history',
  'gold',
  'gold_history',
  'dataset_counts',
  'dataset_labelled',
  'dataset_variants',
  'disputed_targets',
  'runs',
]

/** Every row of every table an import touches, to compare a workspace with itself later. */
export function snapshot(ws: Workspace): Record<string, unknown[]> {
  return Object.fromEntries(
    SNAPSHOT_TABLES.map((t) => [t, ws.db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()]),
  )
}

/** Fails unless each search index matches the rows it indexes. */
export function checkSearchIndex(ws: Workspace): void {
  for (const t of ['items_fts', 'candidates_fts', 'units_fts'])
    ws.db.prepare(`INSERT INTO ${t} (${t}, rank) VALUES ('integrity-check', 1)`).run()
}

/** Items whose text matches a word, through the search index; by dataset. */
export function searchHits(ws: Workspace, word: string): number[] {
  return (
    ws.db
      .prepare(
        `SELECT i.id AS id FROM items_fts f JOIN items i ON i.id = f.rowid WHERE items_fts MATCH ? ORDER BY i.id`,
      )
      .all(word) as { id: number }[]
  ).map((r) => r.id)
}
