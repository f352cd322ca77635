import { countOf } from './plural'

/** One stopped import in words, the same in the Datasets view and `factlab datasets`. */
export function stoppedImportText(s: { name: string; items: number; file: string | null }): string {
  const items = countOf(s.items, 'item')
  return (
    `Incomplete import “${s.name}”: it stopped after ${items}${s.file ? ` of ${s.file}` : ''} ` +
    '(the disk was full or the workspace could not be written). It is hidden, so nobody labels half a file, ' +
    'and it holds the name. Withdraw it to free the space and the name, then import the file again.'
  )
}
