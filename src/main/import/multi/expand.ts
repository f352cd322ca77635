import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { isImportableName, nothingImportable } from '../../../shared/importableFiles'
import { ImportError } from '../errors'

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true })
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (e.name.startsWith('.')) continue
    const path = join(dir, e.name)
    if (e.isDirectory()) await walk(path, out)
    else if (e.isFile() && isImportableName(e.name)) out.push(path)
  }
}

/**
 * The files a list of paths names: files as given, folders as every importable file in them
 * (sub-folders included, in name order, hidden files skipped). Refuses an empty result and a
 * file named twice, before anything is written.
 */
export async function expandPaths(paths: readonly string[]): Promise<string[]> {
  const out: string[] = []
  for (const p of paths) {
    let info: Awaited<ReturnType<typeof stat>>
    try {
      info = await stat(p)
    } catch {
      throw new ImportError(`${p}: no such file or folder`)
    }
    if (info.isDirectory()) {
      const before = out.length
      await walk(p, out)
      if (out.length === before) throw new ImportError(nothingImportable(p))
    } else out.push(p)
  }
  const seen = new Set<string>()
  for (const f of out) {
    if (seen.has(f)) throw new ImportError(`${f}: named twice`)
    seen.add(f)
  }
  return out
}

export async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}
