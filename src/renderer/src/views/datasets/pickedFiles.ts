import { comparePaths, isHiddenPath, isImportableName } from '../../../../shared/importableFiles'

/** Where a picked file is as far as this window can tell: its path on disk, its place in a picked folder, or its name. */
export function pickedPath(f: File): string {
  return window.factlab?.pathForFile?.(f) || f.webkitRelativePath || f.name
}

/**
 * The files a pick brings. A picked folder brings every file in it; the import takes the ones the
 * CLI's folder expansion takes (src/shared/importableFiles.ts), hidden ones skipped, in path order.
 */
export function pickedFiles(list: FileList | null | undefined, folder: boolean): File[] {
  const all = list ? [...list] : []
  if (!folder) return all
  return all
    .filter((f) => isImportableName(f.name) && !isHiddenPath(f.webkitRelativePath || f.name))
    .sort((a, b) => comparePaths(pickedPath(a), pickedPath(b)))
}

/** The picked folder's name, for saying it held nothing to import. */
export function folderName(list: FileList | null | undefined): string | null {
  const first = list?.[0]?.webkitRelativePath.split('/')[0]
  return first ? first : null
}
