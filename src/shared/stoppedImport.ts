import { countOf, formatCount } from './plural'

/** One stopped import in words, the same in the Datasets view and `factlab datasets`. */
export function stoppedImportText(s: {
  name: string
  items: number
  itemsInFile: number | null
  file: string | null
}): string {
  const from = s.file ? ` in ${s.file}` : ''
  const howFar =
    s.itemsInFile === null
      ? `${countOf(s.items, 'item')}${s.file ? ` of ${s.file}` : ''}`
      : `${formatCount(s.items)} of the ${countOf(s.itemsInFile, 'item')}${from}`
  return (
    `Incomplete import “${s.name}”: it stopped after ${howFar} ` +
    '(the disk was full or the workspace could not be written)' +
    (s.itemsInFile === null ? '; how many items the file holds is not known' : '') +
    '. It is hidden, so nobody labels half a file, and it holds the name. ' +
    'Withdraw it to free the space and the name, then import the file again.'
  )
}
