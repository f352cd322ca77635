import { existsSync, mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import type { exportsCalls } from '../../../shared/contract/exports'
import { withSource } from '../../annotate/upload'
import type { AppContext } from '../../app/context'
import { ServiceError } from '../../app/errors'
import { prepareBundleDownload, prepareDatasetDownload, prepareVerdictsDownload } from '../../downloads'
import { exportBundle, exportDataset, exportVerdicts, mergeBundle } from '../../export'
import { claimExportFolder, exportStorageError, replacedNote } from '../../export/exportFolder'
import { type ExportProgress, throttled } from '../../export/exportProgress'
import { notPackageAnnotator } from '../../projects/packageOwner'
import { datasetVisible, findDatasetByName, getDataset } from '../../store/repos/datasets'
import type { Handlers } from '../dispatch'

/** A name safe in a file name on every OS, still recognisable. */
export function slug(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return s || 'dataset'
}

/** Seconds precision, no colons: sorts by time and is a valid file name on Windows. */
function stamp(now: Date): string {
  return now.toISOString().slice(0, 19).replace(/:/g, '-')
}

/**
 * A path the person typed: `~` is their home folder; a relative path is refused because it
 * would land wherever the app happened to start, which nobody could find afterwards.
 */
function typedPath(raw: string, what: string): string {
  const p = raw === '~' ? homedir() : raw.startsWith('~/') ? join(homedir(), raw.slice(2)) : raw
  if (!isAbsolute(p))
    throw new ServiceError(
      'bad_input',
      `The ${what} "${raw}" is not a full path: type one that starts at the root (e.g. ${join(homedir(), 'exports')})`,
    )
  return resolve(p)
}

function freshFile(file: string): string {
  if (existsSync(file))
    throw new ServiceError(
      'bad_input',
      `${file} already exists: choose another file name so it is not overwritten`,
    )
  mkdirSync(dirname(file), { recursive: true })
  return file
}

/**
 * The engine's refusals are plain errors with a clear message; database faults stay `failed`. A
 * full disk or an unwritable folder at `where` (what the export writes) is said as such.
 */
async function refusedAs<T>(
  code: 'bad_input' | 'not_found',
  fn: () => T | Promise<T>,
  where?: string,
): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    const storage = where === undefined ? null : exportStorageError(error, where)
    if (storage) throw storage
    if (error instanceof ServiceError || error instanceof Database.SqliteError || !(error instanceof Error))
      throw error
    throw new ServiceError(code, error.message)
  }
}

export function exportsHandlers(ctx: AppContext): Pick<Handlers, keyof typeof exportsCalls> {
  const exportsDir = () => join(dirname(ctx.workspace.file), 'exports')

  const dataset = (id: number) => {
    if (!datasetVisible(ctx.workspace.db, id))
      throw new ServiceError('not_found', `No dataset with id ${id} in this workspace`)
    const { name } = getDataset(ctx.workspace.db, id)
    return { id, name }
  }
  const annotatorName = (id: number) => {
    const row = ctx.workspace.db.prepare('SELECT name FROM annotators WHERE id = ?').get(id) as
      | { name: string }
      | undefined
    if (!row) throw new ServiceError('not_found', `No annotator with id ${id} in this workspace`)
    return row.name
  }
  // On a laptop the bundle is the package's annotator's; the lead would refuse anyone else's.
  const refuseOutsidePackage = (datasetId: number, annotatorId: number) => {
    const problem = notPackageAnnotator(ctx.workspace.db, datasetId, annotatorName(annotatorId), 'bundle')
    if (problem)
      throw new ServiceError(
        'conflict',
        `${problem.message}. Switch to ${problem.owner} (“Labelling as” in the sidebar) to bundle`,
      )
  }
  // Whoever waits on an export (the CLI's stderr line, the app's export dialog) hears how far it is.
  const progressOf = (datasetId: number, exportId: string | undefined): ExportProgress =>
    throttled(
      (done, total, phase) =>
        ctx.events.emit('exports.progress', { datasetId, exportId: exportId ?? null, phase, done, total }),
      250,
    )
  // Exports under way by the id their caller gave them, so the dialog's Cancel can stop one.
  const running = new Map<string, AbortController>()
  const cancellable = async <T>(exportId: string | undefined, work: (signal: AbortSignal) => Promise<T>) => {
    const controller = new AbortController()
    if (exportId === undefined) return work(controller.signal)
    if (running.has(exportId))
      throw new ServiceError('conflict', `An export named ${exportId} is under way already`)
    running.set(exportId, controller)
    try {
      return await work(controller.signal)
    } finally {
      running.delete(exportId)
    }
  }
  const defaultDir = (datasetId: number, now: Date) =>
    join(exportsDir(), `${slug(dataset(datasetId).name)}-${stamp(now)}`)
  const defaultBundle = (datasetId: number, annotatorId: number | null, now: Date) => {
    const who = annotatorId === null ? 'labels' : slug(annotatorName(annotatorId))
    return join(exportsDir(), `${slug(dataset(datasetId).name)}-${who}-${stamp(now)}.bundle.jsonl`)
  }

  return {
    'exports.defaults': ({ datasetId, annotatorId }) => {
      const now = new Date()
      return { outDir: defaultDir(datasetId, now), bundleFile: defaultBundle(datasetId, annotatorId, now) }
    },
    'exports.dataset': async ({ datasetId, format, outDir, annotator, exportId }) => {
      dataset(datasetId)
      const folder = claimExportFolder(
        outDir ? typedPath(outDir, 'folder') : defaultDir(datasetId, new Date()),
      )
      const dir = folder.dir
      try {
        const result = await cancellable(exportId, (signal) =>
          refusedAs(
            'bad_input',
            () =>
              exportDataset(ctx.workspace, {
                datasetId,
                format,
                outDir: dir,
                annotator,
                onProgress: progressOf(datasetId, exportId),
                signal,
              }),
            dir,
          ),
        )
        const replaced = replacedNote(folder.replaced)
        if (!replaced) return result
        return { ...result, note: result.note ? `${replaced}\n${result.note}` : replaced }
      } catch (error) {
        // Nothing half-written may look like a result: the folder goes back to how it was.
        folder.undo()
        throw error
      }
    },
    'exports.download': ({ exportId, ...input }) => {
      dataset(input.datasetId)
      return cancellable(exportId, (signal) =>
        refusedAs('bad_input', () =>
          prepareDatasetDownload(ctx.workspace, {
            ...input,
            onProgress: progressOf(input.datasetId, exportId),
            signal,
          }),
        ),
      )
    },
    'exports.cancel': ({ exportId }) => {
      const controller = running.get(exportId)
      controller?.abort()
      return { cancelled: controller !== undefined }
    },
    'exports.downloadVerdicts': (input) =>
      refusedAs('not_found', () => prepareVerdictsDownload(ctx.workspace, input)),
    'exports.downloadBundle': (input) => {
      dataset(input.datasetId)
      refuseOutsidePackage(input.datasetId, input.annotatorId)
      return refusedAs('bad_input', () => prepareBundleDownload(ctx.workspace, input))
    },
    'exports.verdicts': ({ runId, raw, out }) => {
      const file = freshFile(
        out ? typedPath(out, 'file') : join(exportsDir(), `run-${runId}-${stamp(new Date())}.jsonl`),
      )
      return refusedAs(
        'not_found',
        () => exportVerdicts(ctx.workspace, { runId, raw, out: file }),
        dirname(file),
      )
    },
    'exports.bundle': ({ datasetId, annotatorId, out }) => {
      dataset(datasetId)
      refuseOutsidePackage(datasetId, annotatorId)
      const file = freshFile(out ? typedPath(out, 'file') : defaultBundle(datasetId, annotatorId, new Date()))
      return refusedAs(
        'bad_input',
        () => exportBundle(ctx.workspace, { datasetId, annotatorId, out: file }),
        dirname(file),
      )
    },
    'exports.mergeBundle': async (input) => {
      if (input.datasetId !== undefined) dataset(input.datasetId)
      const opts = input.datasetId === undefined ? {} : { datasetId: input.datasetId }
      // A typed path may start with ~; the app's picker always gives a full one.
      const source = 'path' in input.source ? { path: typedPath(input.source.path, 'bundle') } : input.source
      const report = await refusedAs('bad_input', () =>
        withSource(source, { consume: true }, (file) => mergeBundle(ctx.workspace, file, opts)),
      )
      const datasetId = input.datasetId ?? findDatasetByName(ctx.workspace.db, report.dataset)?.id
      // Views showing progress or labels of this dataset reload; which targets is not tracked here.
      if (datasetId !== undefined && report.added + report.updated > 0)
        ctx.events.emit('labels.changed', { datasetId, targetIds: [] })
      return report
    },
  }
}
