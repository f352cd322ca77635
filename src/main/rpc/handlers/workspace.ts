import type { workspaceCalls } from '../../../shared/contract/workspace'
import type { AppContext } from '../../app/context'
import { schemaVersion } from '../../store/connection'
import { ensureAnnotator, listAnnotators } from '../../store/repos/annotators'
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
    'workspace.ensureAnnotator': ({ name }) => ensureAnnotator(ctx.workspace.db, name),
  }
}
