import { closeSync, openSync, readSync, statSync, writeFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { saveGuidelines } from '../../src/main/guidelines/guidelines'
import { PREVIEW_CELL_CHARS } from '../../src/main/import/preview'
import type { ImportPreview } from '../../src/shared/contract/datasets'
import { seedProject } from '../export/project'
import { testApps } from '../helpers/app'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const app = testApps()

/** What the import dialog's preview sends in browser mode: the first megabyte. */
const PART = 1 << 20

/** Guidelines long enough that the export's first row, which carries every version, passes 1 MB. */
function longGuidelines(version: number): string {
  const rule = (n: number) =>
    `${n}. A fact is **true** when the reference states it; "built in" is the year work ended (rev ${version}).`
  return `# How to judge, version ${version}\n\n${Array.from({ length: 1800 }, (_, n) => rule(n)).join('\n\n')}`
}

/** The first `bytes` of a file, kept under the file's extension as an upload is. */
function startOf(file: string, bytes: number, dir: string): string {
  const buf = Buffer.alloc(Math.min(bytes, statSync(file).size))
  const fd = openSync(file, 'r')
  try {
    readSync(fd, buf, 0, buf.length, 0)
  } finally {
    closeSync(fd)
  }
  const out = join(dir, `part-${bytes}${extname(file)}`)
  writeFileSync(out, buf)
  return out
}

describe('a FactLab export whose first row passes a megabyte (long guidelines)', () => {
  it.each(['jsonl', 'csv'] as const)(
    '%s: the preview asks for more instead of failing, shows the row once it has it, and the import reads it all',
    async (format) => {
      const dir = tmp()
      const lead = join(dir, 'lead.factlab')
      const { datasetId } = seedProject(lead)
      const ws = Workspace.open(lead)
      const bodies = [3, 4, 5, 6, 7, 8, 9].map(longGuidelines)
      try {
        for (const body of bodies) saveGuidelines(ws.db, datasetId, body, 'Lead')
      } finally {
        ws.close()
      }
      const a = app(lead)
      const { files } = await a.value<{ files: string[] }>('exports.dataset', {
        datasetId,
        format,
        outDir: join(dir, 'out'),
      })
      const file = files[0]!
      expect(statSync(file).size).toBeGreaterThan(PART)

      const preview = (path: string, partial: boolean) =>
        a.value<ImportPreview>('datasets.importPreview', { source: { path }, rows: 5, partial })
      // The first megabyte ends inside the first row: nothing to show yet, and no error.
      const cut = await preview(startOf(file, PART, dir), true)
      expect(cut).toMatchObject({ needsMore: true, rows: [] })
      // Four megabytes hold it: the rows show, the long cells cut short for the table.
      const longer = await preview(startOf(file, 4 * PART, dir), true)
      expect(longer.needsMore).toBe(false)
      expect(longer.preset).toBe('factlab')
      expect(longer.rows.length).toBeGreaterThan(0)
      const shown = longer.rows[0]!.guidelines as string
      expect(shown).toHaveLength(PREVIEW_CELL_CHARS + 1)
      expect(shown.endsWith('…')).toBe(true)

      // The import reads the whole file: every version of the guidelines, in full, and the plan.
      const b = app(join(dir, 'colleague.factlab'))
      const report = await b.value<{ datasetId: number }>('datasets.import', {
        source: { path: file },
        datasetName: 'wiki',
      })
      const guidelines = await b.value<{ current: { body: string; version: number }; history: unknown[] }>(
        'projects.guidelines',
        { datasetId: report.datasetId },
      )
      expect(guidelines.current).toMatchObject({ version: 9, body: bodies.at(-1) })
      expect(guidelines.history).toHaveLength(8)
      const dashboard = await b.value<{ plan: { k: number; policy: string } }>('projects.dashboard', {
        datasetId: report.datasetId,
      })
      expect(dashboard.plan).toMatchObject({ k: 2, policy: 'fixed' })
    },
    120_000,
  )
})

describe('the start of a longer file, previewed', () => {
  it('shows the whole rows before the cut, even when it falls inside a quoted cell', async () => {
    const dir = tmp()
    const part = join(dir, 'start.csv')
    writeFileSync(
      part,
      'ref,answer\nThe sky is blue.,Blue.\nGrass is green.,"A long answer,\nover two lines, cut he',
    )
    const a = app()
    const shown = await a.value<ImportPreview>('datasets.importPreview', {
      source: { path: part },
      partial: true,
    })
    expect(shown).toMatchObject({ needsMore: false, rows: [{ ref: 'The sky is blue.', answer: 'Blue.' }] })
    // Read as a whole file, the same bytes are refused: a quoted cell never closes.
    const whole = await a.call('datasets.importPreview', { source: { path: part } })
    expect(JSON.stringify(whole)).toMatch(/quote/i)
  })
})
