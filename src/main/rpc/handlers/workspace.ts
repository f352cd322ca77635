import type { workspaceCalls } from '../../../shared/contract/workspace'
import type { AppContext } from '../../app/context'
import { ServiceError } from '../../app/errors'
import { laptopLabellers } from '../../projects/packageOwner'
import { schemaVersion } from '../../store/connection'
import { ensureAnnotator, listAnnotators, notAPerson, renameSource } from '../../store/repos/annotators'
import type { Handlers } from '../dispatch'

export const APP_VERSION = '0.1.0'

export function workspaceHandlers(ctx: AppContext): Pick<Handlers, keyof typeof workspaceCalls> {
  return {
    'workspace.info': () => ({
      file: ctx.workspace.file,
      schemaVersion: schemaVersion(ctx.workspace.db),
      appVersion: APP_VERSION,
    }),
    'workspace.annotators': () => listAnnotators(ctx.workspace.db),
    'workspace.labellers': () => laptopLabellers(ctx.workspace.db),
    'workspace.ensureAnnotator': ({ name }) => {
      const a = ensureAnnotator(ctx.workspace.db, name)
      // Labelling as a dataset's reference labels would mix a person's verdicts into them.
      if (a.kind === 'source') throw new ServiceError('conflict', notAPerson(a.name))
      return a
    },
    'workspace.renameSource': ({ annotatorId, name }) => {
      try {
        return renameSource(ctx.workspace.db, annotatorId, name)
      } catch (error) {
        throw new ServiceError('conflict', error instanceof Error ? error.message : String(error))
      }
    },
  }
}
