import { existsSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ServiceError } from '../app/errors'
import { storageProblem } from '../store/storageTrouble'

/*
 * The folder a dataset export writes into. It must be new or empty, so nothing of anyone's is
 * overwritten; the one exception is what an export killed half-way left (`<file>.partial`, never
 * a finished file), which the next export replaces. An export that fails takes back what it made.
 */

/**
 * An export writes each file as `<name>.partial` and renames it only once it is complete. What
 * `name` holds of that: itself, when it is such a file; every `.partial` file under it, when it is
 * a sub-folder an export made (the RefChecker layout's `<setting>/`) holding nothing else; null
 * when it holds anything finished, or nothing at all, which may be someone's.
 */
function leftoversIn(dir: string, name: string): string[] | null {
  const path = join(dir, name)
  const stat = statSync(path)
  if (stat.isFile()) return name.endsWith('.partial') ? [name] : null
  if (!stat.isDirectory()) return null
  const found: string[] = []
  for (const inner of readdirSync(path)) {
    const left = leftoversIn(path, inner)
    if (left === null) return null
    found.push(...left.map((l) => `${name}/${l}`))
  }
  return found.length > 0 ? found : null
}

const listed = (names: readonly string[]) =>
  names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`

export interface ExportFolder {
  dir: string
  /** Leftovers of an unfinished earlier export, removed to make way. */
  replaced: string[]
  /** Removes what this export wrote (and the folders it made), after a failure. */
  undo(): void
}

export function claimExportFolder(dir: string): ExportFolder {
  const madeDirs: string[] = []
  for (let d = dir; !existsSync(d) && dirname(d) !== d; d = dirname(d)) madeDirs.push(d)
  let replaced: string[] = []
  if (madeDirs.length === 0) {
    if (!statSync(dir).isDirectory())
      throw new ServiceError('bad_input', `${dir} is a file, not a folder: choose a folder to export into`)
    const names = readdirSync(dir)
    const leftBy = new Map(names.map((n) => [n, leftoversIn(dir, n)]))
    const leftoverNames = names.filter((n) => leftBy.get(n) !== null)
    const leftovers = leftoverNames.flatMap((n) => leftBy.get(n) ?? [])
    const others = names.filter((n) => leftBy.get(n) === null)
    if (others.length > 0) {
      const unfinished =
        leftovers.length === 0
          ? ''
          : `; ${listed(leftovers)} beside them ${leftovers.length === 1 ? 'is' : 'are'} left from an unfinished earlier export`
      throw new ServiceError(
        'bad_input',
        `The folder ${dir} already holds files (${listed(others)})${unfinished}. Choose a new or empty folder so nothing in it is overwritten`,
      )
    }
    for (const n of leftoverNames) rmSync(join(dir, n), { recursive: true, force: true })
    replaced = leftovers
  }
  return {
    dir,
    replaced,
    undo() {
      if (madeDirs.length === 0) {
        // It held nothing but leftovers, now gone: whatever is in it is this export's.
        for (const n of readdirSync(dir)) rmSync(join(dir, n), { recursive: true, force: true })
        return
      }
      rmSync(dir, { recursive: true, force: true })
      for (const d of madeDirs.slice(1)) {
        try {
          rmdirSync(d)
        } catch {
          return // something else lives there now
        }
      }
    },
  }
}

/** The note an export that replaced leftovers adds to what it says. */
export function replacedNote(replaced: readonly string[]): string | undefined {
  if (replaced.length === 0) return undefined
  return `Replaced ${listed(replaced)}, left in the folder by an unfinished earlier export.`
}

/** A full disk or a folder FactLab may not write in, said plainly; null for other errors. */
export function exportStorageError(error: unknown, where: string): ServiceError | null {
  const problem = storageProblem(error, where, 'export')
  if (!problem) return null
  return new ServiceError(
    'failed',
    `${problem}: the export was not written, and nothing of it was left there`,
  )
}
