import { basename, resolve } from 'node:path'
import type { z } from 'zod'
import { defaultDatasetName } from '../../shared/datasetName'
import type { ImportFormat, Mapping, PresetName } from '../../shared/importMapping'
import { countOf } from '../../shared/plural'
import type { Workspace } from '../app/workspace'
import { openWorkspace } from '../store/connection'
import { personNamed, sourceNamed } from '../store/repos/annotators'
import { now } from '../store/repos/rows'
import { troubleKind } from '../store/trouble'
import { inSavepoint } from './atomic'
import { nameFromCard } from './cardName'
import { CHUNK_ITEMS, CHUNK_WORK, ChunkWriter, yieldToOthers } from './chunks'
import { chooseConverter } from './converter'
import { ImportDoubts } from './doubts'
import { ImportError, RowError } from './errors'
import { createHiddenDataset, discardDataset, publishDataset, stopFilling } from './hidden'
import { type PersonColumn, peopleNamedInMapping, peopleRefusal, sourceNamedInMapping } from './mapping'
import { expandPaths, isFolder } from './multi/expand'
import { type FilePart, nameParts, partsMetadata } from './multi/names'
import type { NormItem, PresetOptions, RowConverter } from './normalized'
import { layoutSettingsMisfit } from './presetOptionsFit'
import { writeProject } from './projectWriter'
import { loadContexts } from './refContexts'
import type { ImportReport, SkippedRow } from './report'
import { recordsInFile } from './rowTotal'
import { settingMatchingNoRow } from './settingsMatch'
import { ItemSink } from './sink'
import { openRows, placeText, type RowSource } from './sources'
import { importStorageError, type KeptRows } from './storageStop'

export interface ImportOptions {
  /**
   * A file, or several files or folders imported together as one dataset: each file becomes a
   * candidate variant named from its file name (RefChecker's `<source>_<model>_answers.json` →
   * `<model>`), items with the same id in several files become one item.
   */
  file: string | readonly string[]
  /** Names the person knows the files by (uploads sit in temporary folders), for variant names. */
  shownNames?: readonly string[]
  format?: ImportFormat
  preset?: PresetName
  mapping?: Mapping | z.input<typeof Mapping>
  datasetName?: string
  skipBadRows?: boolean
  /**
   * A mapping's label columns named after people already in the workspace are filed as their
   * labels. Without it such a mapping is refused: a file's labels never join a person's own unasked.
   */
  creditExistingPeople?: boolean
  /** RefChecker: a file giving question and reference per id. */
  secondFile?: string
  presetOptions?: PresetOptions
  onProgress?: (rows: number) => void
  /** Items per transaction (tests use small chunks to cross chunk boundaries cheaply). */
  chunkItems?: number
}

/**
 * Imports a file as a new dataset, streamed and atomic: the first bad row aborts the whole
 * import (nothing is kept) unless `skipBadRows`, in which case every skipped row is listed.
 * Rows are written in short transactions into a hidden dataset, so people keep labelling (and
 * other imports keep going) meanwhile; the dataset appears only once every row is in.
 */
export async function importFile(ws: Workspace, opts: ImportOptions): Promise<ImportReport> {
  const given = typeof opts.file === 'string' ? [opts.file] : [...opts.file]
  if (given.length === 0) throw new ImportError('No file to import')
  const multi = given.length > 1 || (await isFolder(given[0]!))
  const parts: FilePart[] = multi
    ? nameParts(await expandPaths(given), opts.shownNames)
    : [{ file: given[0]!, variant: '' }]
  if (multi && opts.mapping)
    throw new ImportError('Several files import with a preset; a column mapping applies to one file')
  const file = parts[0]!.file
  let source: RowSource = await openRows(file, opts.format)
  const byId = opts.secondFile ? await loadContexts(opts.secondFile) : undefined
  // Items of several files meet by id, so only one file's records can be its items.
  const recordsTotal = multi ? null : await recordsInFile(file, source.format)
  const name = (opts.datasetName ?? defaultName(given, multi, opts.shownNames)).trim()
  if (!name) throw new ImportError('A dataset needs a name')
  let current = file
  const place = (line: number, column?: number) => placeText(source.unit, line, column)
  const where = (line: number, column?: number) => `${current}, ${place(line, column)}`
  // The import keeps a connection of its own: its chunks then never mix with the UI's writes.
  // An in-memory workspace (new, or a copy deserialized from another's bytes) cannot be opened
  // twice, whatever file name it is given: the connection says so, and the import shares it.
  const own = !ws.db.memory
  const db = own ? openWorkspace(ws.file, { skipQuickCheck: true }) : ws.db
  let datasetId: number | null = null
  try {
    const report = await run()
    publishDataset(db, report.datasetId)
    return report
  } catch (error) {
    const left = datasetId !== null && !withdraw(datasetId)
    throw importStorageError(error, ws.file, left && datasetId !== null ? kept(datasetId) : null) ?? error
  } finally {
    if (datasetId !== null) stopFilling(datasetId)
    try {
      await source.events.return(undefined)
    } finally {
      if (own) db.close()
    }
  }

  /** False when the rows stay (hidden): a later FactLab process that opens the file withdraws them. */
  function withdraw(id: number): boolean {
    try {
      discardDataset(db, id)
      return true
    } catch {
      // The first error is the one worth reporting.
      return false
    }
  }

  /** What a stopped import keeps (hidden) when its withdrawal failed too: named in its message. */
  function kept(id: number): KeptRows {
    try {
      const items = db.prepare('SELECT COUNT(*) FROM items WHERE dataset_id = ?').pluck().get(id) as number
      return { dataset: name, items }
    } catch {
      return { dataset: name, items: null }
    }
  }

  async function run(): Promise<ImportReport> {
    const skipped: SkippedRow[] = []
    const doubts = new ImportDoubts()
    if (multi) doubts.nextFile(current)
    const perFile: { file: string; variant: string; rows: number }[] = []
    let columns: string[] | null = null
    let converter: RowConverter | null = null
    let sink: ItemSink | null = null
    let chunks: ChunkWriter | null = null
    let credited: PersonColumn[] = []
    let records = 0
    let partIndex = 0
    let partRecords = 0
    type Entry = { item: NormItem; line: number; record: number; part: number }
    let pending: Entry | null = null
    let batch: Entry[] = []
    let work = 0

    const bad = (line: number, reason: string, column?: number) => {
      if (!opts.skipBadRows) throw new ImportError(`${where(line, column)}: ${reason}`)
      const at = place(line, column)
      skipped.push(multi ? { line, at, reason, file: current } : { line, at, reason })
    }
    const start = async (cols: string[]) => {
      const conv = chooseConverter(file, cols, opts, byId)
      const misfit = layoutSettingsMisfit(conv.name, opts)
      if (misfit) throw new ImportError(misfit)
      const unmatched = await settingMatchingNoRow(
        parts.map((p) => p.file),
        {
          format: opts.format,
          dimension: conv.name === 'summeval' ? opts.presetOptions?.dimension : undefined,
          byId: conv.name === 'refchecker' ? byId : undefined,
        },
      )
      if (unmatched) throw new ImportError(unmatched)
      const refused =
        conv.mapping && sourceNamedInMapping(conv.mapping, conv.sources ?? [], (n) => sourceNamed(db, n))
      if (refused) throw new ImportError(refused)
      // Only a mapping the person gave: a preset's label columns are the file's sources, which the
      // sink keeps apart from a person of the same name by itself.
      const people =
        opts.mapping && conv.mapping ? peopleNamedInMapping(conv.mapping, (n) => personNamed(db, n)) : []
      if (people.length && !opts.creditExistingPeople) throw new ImportError(peopleRefusal(people))
      credited = people
      converter = conv
      datasetId = createHiddenDataset(
        db,
        {
          name,
          labelSchema: conv.labelSchema,
          source: {
            file: multi ? given.join(', ') : file,
            format: source.format,
            preset: opts.mapping ? undefined : conv.name,
            mapping: conv.mapping ?? undefined,
            importedAt: now(),
            ...(multi
              ? {
                  files: parts.map((p) => ({ ...p })),
                  metadata: partsMetadata(parts),
                }
              : {}),
          },
        },
        // A layout that gathers several rows into one item (merge) has fewer items than records.
        conv.merge ? null : recordsTotal,
      )
      sink = new ItemSink(db, datasetId, conv.mapping?.id ?? 'id', conv.sources ?? [], conv.goldRule)
      if (multi) sink.startPart()
      chunks = new ChunkWriter(db, datasetId)
    }
    /** A later file must fit the layout the first one chose. */
    const checkPart = async (cols: string[]) => {
      const first = converter as RowConverter | null
      if (!first) return await start(cols)
      const conv = chooseConverter(current, cols, opts, byId)
      if (conv.name !== first.name)
        throw new ImportError(
          `${current}: its columns fit preset ${conv.name}, not ${first.name} like ${file}; files imported together must share one layout`,
        )
      converter = conv
    }
    const writeOne = (s: ItemSink, entry: Entry) => {
      const { item, line, record } = entry
      try {
        // In a multi-file import rows without ids pair up by position: row k of every file is item k.
        const write = () => s.write(item, item.extId ?? String(record), multi && entry.part > 0)
        if (opts.skipBadRows) inSavepoint(db, write)
        else write()
        doubts.note(item, line, place)
      } catch (error) {
        // A full disk is no fault of the row: it stops the import, said as such (storageStop.ts).
        if (troubleKind(error)) throw error
        if (!(error instanceof RowError)) throw new ImportError(`${where(line)}: ${(error as Error).message}`)
        bad(line, error.reason)
      }
    }
    /** Writes the items gathered so far in one chunk, then lets others in. */
    const drain = async () => {
      const s = sink
      const c = chunks
      if (!batch.length || !s || !c) return
      const entries = batch
      batch = []
      work = 0
      c.write(() => {
        for (const entry of entries) writeOne(s, entry)
      })
      await yieldToOthers()
    }
    const flush = async () => {
      if (!pending) return
      batch.push(pending)
      work += workOf(pending.item)
      pending = null
      if (batch.length >= (opts.chunkItems ?? CHUNK_ITEMS) || work >= CHUNK_WORK) await drain()
    }
    /** A bad row is reported after the rows before it are written, so skips stay in file order. */
    const badRow = async (line: number, reason: string, column?: number) => {
      await drain()
      bad(line, reason, column)
    }
    /** Each file is one variant: its single candidate takes the file's name. */
    const asVariant = (item: NormItem): NormItem => {
      if (!multi) return item
      const v = parts[partIndex]!.variant
      const one = item.candidates.length === 1
      return {
        ...item,
        candidates: item.candidates.map((c) => ({ ...c, variant: one ? v : `${v}/${c.variant}` })),
      }
    }

    for (; partIndex < parts.length; partIndex++) {
      if (partIndex > 0) {
        await flush()
        await drain()
        await source.events.return(undefined)
        current = parts[partIndex]!.file
        source = await openRows(current, opts.format)
        columns = null
        doubts.nextFile(current)
      }
      partRecords = 0
      if (multi) (sink as ItemSink | null)?.startPart()
      let checked = partIndex === 0 ? converter !== null : false
      for await (const ev of source.events) {
        if (ev.kind === 'header') {
          columns = ev.columns
          // A header alone is enough to refuse a file whose columns fit nothing.
          if (!checked) {
            await checkPart(columns)
            checked = true
          }
          continue
        }
        records++
        partRecords++
        if (ev.kind === 'bad') {
          await badRow(ev.line, ev.error, ev.column)
          continue
        }
        if (!checked) {
          await checkPart(columns ?? Object.keys(ev.row))
          checked = true
        }
        const conv = converter as RowConverter | null
        if (!conv) continue
        let item: NormItem
        try {
          item = asVariant(conv.toItem(ev.row))
          const merged = pending && conv.merge ? conv.merge(pending.item, item) : null
          if (merged && pending) {
            pending.item = merged
            continue
          }
        } catch (error) {
          if (!(error instanceof RowError)) throw error
          await badRow(ev.line, error.reason)
          continue
        }
        await flush()
        pending = { item, line: ev.line, record: multi ? partRecords : records, part: partIndex }
        if (records % 1000 === 0) opts.onProgress?.(records)
      }
      perFile.push({ file: current, variant: parts[partIndex]!.variant, rows: partRecords })
    }
    await flush()
    await drain()
    opts.onProgress?.(records)
    const project = (converter as RowConverter | null)?.project?.() ?? null
    const projectSink = sink as ItemSink | null
    if (project && projectSink && chunks && datasetId !== null && projectSink.counts.items > 0) {
      const id = datasetId
      ;(chunks as ChunkWriter).write(() => {
        doubts.warnings.push(...writeProject(db, id, project, (n) => projectSink.person(n)))
      })
    }

    const counts = (sink as ItemSink | null)?.counts ?? null
    if (!counts || counts.items === 0 || datasetId === null) {
      if (records === 0)
        throw new ImportError(columns ? `${file}: has a header but no rows` : `${file}: holds no rows`)
      throw new ImportError(
        `${file}: ${records === 1 ? 'its one row' : `none of its ${countOf(records, 'row')}`} could be imported (first problem: ${skipped[0]?.at}: ${skipped[0]?.reason})`,
      )
    }
    for (const r of (sink as ItemSink | null)?.renamedSources ?? []) doubts.sourceRenamed(r.wanted, r.used)
    for (const c of credited) doubts.labelsCredited(c.column, c.person)
    return {
      dataset: name,
      datasetId,
      ...counts,
      skipped,
      ...(doubts.unmatched.length ? { unmatchedFactKeys: doubts.unmatched } : {}),
      warnings: doubts.warnings,
      ...(multi ? { files: perFile } : {}),
    }
  }
}

/**
 * A folder's name as the person gave it, else the rule the import dialog follows too: files on
 * this disk by where they are, uploads by the names the person knows them by (no folder).
 */
function defaultName(given: readonly string[], multi: boolean, shown?: readonly string[]): string {
  if (shown) return defaultDatasetName(shown)
  if (multi && given.length === 1) return basename(given[0]!)
  // FactLab's own export: its card beside the file knows the dataset's name.
  const card = given.length === 1 ? nameFromCard(resolve(given[0]!)) : null
  return card ?? defaultDatasetName(given.map((g) => resolve(g)))
}

/** Rows an item writes, roughly: what a chunk's length is measured in. */
function workOf(item: NormItem): number {
  let n = 1 + item.candidates.length * (1 + item.facts.length)
  for (const c of item.candidates) for (const u of c.units) n += 2 + u.labels.length
  for (const f of item.facts) n += 1 + f.labels.length
  return n
}
