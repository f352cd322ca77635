import type { datasetsCalls } from '../../../shared/contract/datasets'
import { PRESET_NAMES } from '../../../shared/importMapping'
import { datasetSummary, listDatasetSummaries, queryItems } from '../../annotate/datasets'
import { withUploadedFile } from '../../annotate/upload'
import type { AppContext } from '../../app/context'
import { type Handlers, ServiceError } from '../dispatch'

function importerMissing(): never {
  throw new ServiceError(
    'failed',
    'Importing from the app is not available in this build yet; use `factlab import`.',
  )
}

export function datasetsHandlers(ctx: AppContext): Pick<Handlers, keyof typeof datasetsCalls> {
  return {
    'datasets.list': () => listDatasetSummaries(ctx.workspace.db),
    'datasets.get': ({ datasetId }) => datasetSummary(ctx.workspace.db, datasetId),
    'datasets.items': (input) => queryItems(ctx.workspace.db, input),
    'datasets.importPreview': (input) =>
      withUploadedFile(input.fileName, input.contentBase64, () => {
        void PRESET_NAMES
        return importerMissing()
      }),
    'datasets.import': (input) =>
      withUploadedFile(input.fileName, input.contentBase64, () => importerMissing()),
  }
}
