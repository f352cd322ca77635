import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Labels, gold and verdicts each have one room in src/main: only the room prepares SQL on its
 * tables, so a reader finds every write (and the rules around it) in one folder. The migrations
 * define the tables and their triggers, so they are the one other place allowed to name them.
 */
const OWNERS: Record<string, string> = {
  labels: 'labels',
  label_history: 'labels',
  gold: 'labels',
  gold_history: 'labels',
  label_blocks: 'labels',
  label_block_extras: 'labels',
  label_saves: 'labels',
  verdicts: 'verdicts',
}

const ROOT = join(__dirname, '..', '..', 'src', 'main')
const EXEMPT = [join('store', 'migrations') + sep]

// Word-bounded on both sides (`gold_rules` or `verdicts_x` are other tables), and the keyword may
// end one line with the table starting the next.
const TABLE_SQL = new RegExp(
  `\\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\\s+(${Object.keys(OWNERS).join('|')})(?![\\w])`,
  'gi',
)
// Prose in comments ("read from gold") is not SQL.
const COMMENT_LINE = /^\s*(?:\/\/|\/?\*)/

interface Violation {
  file: string
  line: number
  table: string
  text: string
}

/** Every place in `source` (a file at `file`, relative to src/main) naming a table it does not own. */
function tableViolations(file: string, source: string): Violation[] {
  const folder = file.split(/[\\/]/)[0]
  const lines = source.split('\n')
  const lineAt = (index: number) => source.slice(0, index).split('\n').length
  const out: Violation[] = []
  for (const m of source.matchAll(TABLE_SQL)) {
    const table = (m[1] ?? '').toLowerCase()
    if (OWNERS[table] === folder) continue
    const keywordLine = lineAt(m.index)
    if (COMMENT_LINE.test(lines[keywordLine - 1] ?? '')) continue
    const line = lineAt(m.index + m[0].length - 1)
    out.push({ file, line, table, text: (lines[line - 1] ?? '').trim() })
  }
  return out
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(path)
    return e.name.endsWith('.ts') ? [path] : []
  })
}

describe('tables have one owning folder', () => {
  it('no file outside labels/ or verdicts/ prepares SQL on their tables', () => {
    const found = sourceFiles(ROOT)
      .map((path) => relative(ROOT, path))
      .filter((file) => !EXEMPT.some((e) => file.startsWith(e)))
      .flatMap((file) => tableViolations(file, readFileSync(join(ROOT, file), 'utf8')))
      .map((v) => `src/main/${v.file}:${v.line} touches ${v.table} (owned by ${OWNERS[v.table]}/): ${v.text}`)
    expect(found).toEqual([])
  })

  it('the matcher catches a deliberate violation and names file and line', () => {
    const source = [
      'const a = 1',
      "db.prepare('SELECT verdict FROM labels WHERE target_id = ?')",
      'db.prepare(`INSERT OR REPLACE INTO verdicts (run_id) VALUES (?)`)',
      'db.prepare(`SELECT 1 FROM units u JOIN',
      '  gold_history h ON h.target_id = u.id`)',
      "db.exec('DELETE FROM gold WHERE 1')",
    ].join('\n')
    const found = tableViolations('units/sneaky.ts', source).map((v) => `${v.file}:${v.line}:${v.table}`)
    expect(found.sort()).toEqual(
      [
        'units/sneaky.ts:2:labels',
        'units/sneaky.ts:3:verdicts',
        'units/sneaky.ts:5:gold_history',
        'units/sneaky.ts:6:gold',
      ].sort(),
    )
  })

  it('the owning folder may touch its own tables, and other tables with similar names do not count', () => {
    const own = "db.prepare('UPDATE gold SET verdict = ? WHERE target_id = ?')"
    expect(tableViolations('labels/gold.ts', own)).toEqual([])
    expect(tableViolations('verdicts/write.ts', own).map((v) => v.table)).toEqual(['gold'])
    const others = "db.prepare('SELECT * FROM gold_rules JOIN verdicts_x ON 1 JOIN labelsets ON 1')"
    expect(tableViolations('units/rules.ts', others)).toEqual([])
    expect(
      tableViolations('labels/x.ts', "db.prepare('SELECT * FROM verdicts')").map((v) => v.table),
    ).toEqual(['verdicts'])
  })
})
