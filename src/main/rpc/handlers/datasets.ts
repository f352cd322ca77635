import type { datasetsCalls } from '../../../shared/contract/datasets'
import { datasetBrief, datasetSummary, listDatasetSummaries, queryItems } from '../../annotate/datasets'
import { SourceError, withSource, withSources } from '../../annotate/upload'
import type { AppContext } from '../../app/context'
import { ServiceError } from '../../app/errors'
import { ImportError, ImportStopped, importFile, previewFile } from '../../import'
import { stoppedImports, withdrawStoppedImport } from '../../import/stoppedImports'
import { listDatasets } from '../../store/repos/datasets'
import type { Handlers } from '../dispatch'
import { shownNames } from '../sources/shownNames'

/**
 * An import refusal is about the file the person chose: say so with the importer's words. An
 * import a busy, full or failing workspace stopped is no refusal: `unavailable`, so a script
 * (and `factlab call`) tries again later, as after any other write that met it.
 */
async function asBadInput<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (error instanceof ImportStopped && error.passing) throw new ServiceError('unavailable', error.message)
    if (error instanceof ImportError || error instanceof SourceError)
      throw new ServiceError('bad_input', error.message)
    throw error
  }
}

export function datasetsHandlers(ctx: AppContext): Pick<Handlers, keyof typeof datasetsCalls> {
  return {
    'datasets.list': () => listDatasetSummaries(ctx.workspace.db),
    'datasets.stoppedImports': () => stoppedImports(ctx.workspace.db),
    'datasets.withdrawImport': ({ datasetId }) => withdrawStoppedImport(ctx.workspace.db, datasetId),
    'datasets.names': () => listDatasets(ctx.workspace.db).map(({ id, name }) => ({ id, name })),
    'datasets.brief': ({ datasetId }) => datasetBrief(ctx.workspace.db, datasetId),
    'datasets.get': ({ datasetId }) => datasetSummary(ctx.workspace.db, datasetId),
    'datasets.items': (input) => queryItems(ctx.workspace.db, input),
    'datasets.importPreview': ({ source, format, preset, mapping, rows, partial }) =>
      asBadInput(() =>
        withSource(source, { consume: false }, (file) =>
          previewFile(file, { format, preset, mapping, rows, partial }),
        ),
      ),
    'datasets.import': async ({
      source,
      moreSources,
      format,
      preset,
      mapping,
      datasetName,
      skipBadRows,
      creditExistingPeople,
      pickedPaths,
      secondSource,
      dimension,
    }) => {
      const all = [source, ...moreSources]
      const shown = shownNames(all, pickedPaths)
      // The second file is held (an upload consumed) with the others, as the CLI's --second-file.
      const report = await asBadInput(() =>
        withSources(secondSource ? [...all, secondSource] : all, { consume: true }, (held) => {
          const files = secondSource ? held.slice(0, -1) : held
          return importFile(ctx.workspace, {
            file: files.length === 1 ? files[0]! : files,
            shownNames: shown,
            format,
            preset,
            mapping,
            datasetName,
            skipBadRows,
            creditExistingPeople,
            secondFile: secondSource ? held.at(-1) : undefined,
            presetOptions: dimension === undefined ? undefined : { dimension },
          })
        }),
      )
      // Uploads sit in temporary folders: every place in the report names the file as the person knows it.
      const known = new Map((report.files ?? []).map((f, i) => [f.file, shown[i] ?? f.file]))
      const named = <T extends { file?: string }>(r: T): T =>
        r.file === undefined ? r : { ...r, file: known.get(r.file) ?? r.file }
      return {
        datasetId: report.datasetId,
        dataset: report.dataset,
        items: report.items,
        candidates: report.candidates,
        units: report.units,
        annotators: report.annotators,
        labels: report.labels,
        skipped: report.skipped.map(named),
        warnings: report.warnings.map(named),
        ...(report.files ? { files: report.files.map(named) } : {}),
      }
    },
  }
}
