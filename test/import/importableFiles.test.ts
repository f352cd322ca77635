import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expandPaths } from '../../src/main/import/multi/expand'
import { comparePaths, isHiddenPath, isImportableName } from '../../src/shared/importableFiles'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

/** Every file under a folder, as the dialog's folder picker hands them over (relative paths). */
function pickedFolder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? pickedFolder(dir, join(prefix, e.name)) : [join(prefix, e.name)],
  )
}

describe('the files a folder import reads', () => {
  it('are the same in the dialog and the CLI: no .txt, .ndjson and .tab read, hidden files skipped', async () => {
    const dir = tmp()
    mkdirSync(join(dir, 'a'))
    mkdirSync(join(dir, '.cache'))
    for (const f of [
      'b.json',
      'NOTES.txt',
      'c.NDJSON',
      'd.tab',
      'a/x.csv',
      'a.parquet',
      '.hidden.json',
      '.cache/y.json',
    ])
      writeFileSync(join(dir, f), '')
    const cli = (await expandPaths([dir])).map((f) => relative(dir, f))
    const dialog = pickedFolder(dir)
      .filter((f) => isImportableName(f.split('/').pop()!) && !isHiddenPath(f))
      .sort(comparePaths)
    expect(cli).toEqual(['a/x.csv', 'a.parquet', 'b.json', 'c.NDJSON', 'd.tab'])
    expect(dialog).toEqual(cli)
  })

  it('refuses a folder with nothing importable, saying what it looks for', async () => {
    const dir = tmp()
    writeFileSync(join(dir, 'readme.txt'), 'notes')
    await expect(expandPaths([dir])).rejects.toThrow(
      /holds no JSONL, JSON, CSV, TSV or Parquet file.*nothing to import/,
    )
  })
})
