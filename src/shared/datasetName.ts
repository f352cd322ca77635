/**
 * The name an import gives a dataset when the person gives none, the same in the CLI and the
 * import dialog: a lone file's name without its extension; several files from one folder, the
 * folder's name (as `factlab import <folder>` names it); several from nowhere known (files picked
 * one by one in a browser, which tells no folder), the first file's name "and N more".
 * Paths use `/` or `\` between folders.
 */
export function defaultDatasetName(paths: readonly string[]): string {
  const parts = paths.map((p) => p.split(/[\\/]+/).filter((s) => s !== '' && s !== '.'))
  const stem = (segments: readonly string[]) => (segments.at(-1) ?? '').replace(/\.[^.]+$/, '')
  if (parts.length <= 1) return stem(parts[0] ?? [])
  const folders = new Set(parts.map((s) => s.slice(0, -1).join('/')))
  const [folder] = folders
  if (folders.size === 1 && folder) return folder.split('/').at(-1)!
  return `${stem(parts[0]!)} and ${parts.length - 1} more`
}
