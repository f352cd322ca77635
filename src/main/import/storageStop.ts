import { storageProblem } from '../store/storageTrouble'
import { troubleKind } from '../store/trouble'
import { ImportError } from './errors'

/**
 * What an import that stopped on a full disk or a read-only workspace says: what happened,
 * where, that nothing was imported, and what became of the rows written before it stopped.
 * Null for any other error.
 */
export function importStorageError(
  error: unknown,
  workspaceFile: string,
  rowsLeft: boolean,
): ImportError | null {
  const problem = storageProblem(error, workspaceFile, 'workspace')
  if (!problem) return null
  const full = troubleKind(error) === 'full'
  return new ImportError(
    `${problem}: the import stopped and nothing was imported` +
      (full ? '; free some space there and import again' : '') +
      (rowsLeft
        ? '. The rows it had written are hidden: the Datasets view and `factlab datasets` show it as an incomplete import to withdraw once there is space (FactLab also removes them the next time it opens this workspace with space to do so)'
        : ''),
  )
}
