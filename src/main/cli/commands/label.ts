import type { Command } from 'commander'
import { z } from 'zod'
import { contract } from '../../../shared/contract'
import { EvidenceSpan, type Label, SaveId } from '../../../shared/domain'
import { countOf } from '../../../shared/plural'
import { notPackageAnnotator } from '../../projects/packageOwner'
import { CliError, EXIT, printResult } from '../util'
import { adjudicateFile } from './adjudicateFile'
import {
  type LocatedTarget,
  locateTarget,
  type TargetFlags,
  targetLocatorFromFlags,
  verdictFor,
  withTargetOptions,
} from './locate'
import { applyLines, linePeople, lineSchema, locateLines, refuseRepeatedTargets } from './locatedLines'
import { type Session, withSession } from './session'

/** One line of `label --file`: the same locators as the flags; dataset and annotator may come from them. */
const LabelLine = lineSchema({
  /** null clears the label; numbers are accepted for numeric schemas. */
  verdict: z.union([z.string(), z.number().transform(String)]).nullable(),
  note: z.string().nullable().optional(),
  evidence: z.array(EvidenceSpan).optional(),
  /** Run again after a lost answer, a line with the same save id is not saved twice. */
  saveId: SaveId.optional(),
})

/** `reference:10-42` or `candidate:0-5`: the characters a verdict rests on. */
function parseSpan(raw: string): EvidenceSpan {
  const m = /^(reference|candidate):(\d+)-(\d+)$/.exec(raw.trim())
  const span = m ? EvidenceSpan.safeParse({ pane: m[1], start: Number(m[2]), end: Number(m[3]) }) : null
  if (!span?.success)
    throw new CliError(
      `--evidence must look like reference:START-END or candidate:START-END, got "${raw}"`,
      EXIT.usage,
    )
  return span.data
}

interface LabelFlags extends TargetFlags {
  verdict?: string
  clear?: boolean
  note?: string
  evidence?: string[]
  annotator?: string
  newAnnotator?: boolean
  file?: string
  saveId?: string
}

/** On a laptop (a package's workspace) only the package's annotator labels: refused before anything is written. */
function refuseOutsidePackage(s: Session, datasetId: number, name: string): void {
  const problem = notPackageAnnotator(s.db, datasetId, name, 'label')
  if (problem) throw new CliError(`${problem.message}. Use --annotator ${problem.owner}; nothing was saved`)
}

const describeTarget = (t: LocatedTarget) => `item ${t.page.item.extId}, ${t.variant}, unit ${t.number}`

async function labelOne(s: Session, f: LabelFlags): Promise<void> {
  if (f.verdict !== undefined && f.clear)
    throw new CliError('give --verdict <v> or --clear, not both', EXIT.usage)
  if (f.verdict === undefined && !f.clear) throw new CliError('give --verdict <v> or --clear', EXIT.usage)
  const target = await locateTarget(s, targetLocatorFromFlags(f))
  if (s.annotatorFlag) refuseOutsidePackage(s, target.datasetId, s.annotatorFlag)
  const label = await s.call('annotate.save', {
    targetId: target.targetId,
    annotatorId: s.annotatorId('label'),
    verdict: f.clear || f.verdict === undefined ? null : verdictFor(s, target, f.verdict),
    ...(f.evidence ? { evidence: f.evidence.map(parseSpan) } : {}),
    ...(f.note !== undefined ? { note: f.note } : {}),
    ...(f.saveId !== undefined ? { saveId: f.saveId } : {}),
  })
  printResult(
    Boolean(f.json),
    { ...label, item: target.page.item.extId, variant: target.variant, unit: target.number },
    () =>
      label.verdict === null
        ? `Cleared the label on ${describeTarget(target)}`
        : `${describeTarget(target)}: ${label.verdict}`,
  )
}

/**
 * Every line is read and located before anything is written, then all labels are saved in one
 * transaction: a bad line (named by its number) leaves the workspace as it was.
 */
async function labelFile(s: Session, file: string, f: LabelFlags): Promise<void> {
  const planned = await locateLines(s, file, LabelLine, f)
  refuseRepeatedTargets(file, planned, true)
  // A laptop's labels are its package annotator's only.
  const idOf = linePeople(s, file, planned, Boolean(f.newAnnotator), (p) =>
    refuseOutsidePackage(s, p.target.datasetId, p.annotator),
  )
  const save = s.handlers['annotate.save']
  const saved = applyLines(s, file, planned, ({ target, row, annotator }) =>
    save(
      contract['annotate.save'].input.parse({
        targetId: target.targetId,
        annotatorId: idOf(annotator),
        verdict: row.verdict === null ? null : verdictFor(s, target, row.verdict),
        ...(row.evidence ? { evidence: row.evidence } : {}),
        ...(row.note !== undefined ? { note: row.note } : {}),
        ...(row.saveId !== undefined ? { saveId: row.saveId } : {}),
      }),
    ),
  )
  const report = { file, saved: saved.length, cleared: saved.filter((l: Label) => l.verdict === null).length }
  printResult(
    Boolean(f.json),
    report,
    () => `Saved ${countOf(report.saved, 'label')} from ${file} (${report.cleared} cleared)`,
  )
}

/** `label` (one target or a JSONL file) and `adjudicate` (gold for one target). */
export function registerLabelCommands(program: Command): void {
  withTargetOptions(
    program
      .command('label')
      .description(
        'Give, change or clear a label on one target, or save a JSONL file of labels (all or nothing)',
      ),
  )
    .option('--verdict <v>', "a verdict of the dataset's label schema")
    .option('--clear', 'clear the label (its history keeps it)')
    .option('--note <text>', 'a note beside the verdict')
    .option('--evidence <spans...>', 'evidence spans as reference:START-END or candidate:START-END')
    .option('--annotator <name>', 'who is labelling: a person the workspace knows')
    .option(
      '--new-annotator',
      "add the --annotator name (or a line's) as a new person if the workspace does not know it",
    )
    .option('--file <labels.jsonl>', 'one {"item","variant","unit"|"unitText","verdict",…} object per line')
    .option(
      '--save-id <id>',
      'an id of your own for this label (8 to 64 letters, digits, - or _): run again with the same id after a lost answer, it is saved once',
    )
    .action(async (f: LabelFlags) => {
      await withSession(f.workspace, f.annotator, (s) => {
        s.mayAddAnnotator = Boolean(f.newAnnotator)
        return f.file ? labelFile(s, f.file, f) : labelOne(s, f)
      })
    })

  withTargetOptions(
    program
      .command('adjudicate')
      .description(
        "Set a target's gold verdict, as the adjudication queue does, or record a JSONL file of decisions (all or nothing)",
      ),
  )
    .option('--verdict <v>', 'the gold verdict')
    .option('--note <text>', 'why this was decided')
    .option('--annotator <name>', 'who decides: a person the workspace knows')
    .option('--new-annotator', 'add the --annotator name as a new person if the workspace does not know it')
    .option(
      '--file <decisions.jsonl>',
      'one {"item","variant","unit"|"unitText","verdict","note"} object per line',
    )
    .action(async (f: LabelFlags) => {
      await withSession(f.workspace, f.annotator, async (s) => {
        s.mayAddAnnotator = Boolean(f.newAnnotator)
        if (f.file) return adjudicateFile(s, f.file, f)
        if (f.verdict === undefined)
          throw new CliError('give --verdict <v> (or --file <decisions.jsonl>)', EXIT.usage)
        const target = await locateTarget(s, targetLocatorFromFlags(f))
        const r = await s.call('agreement.adjudicate', {
          targetId: target.targetId,
          verdict: verdictFor(s, target, f.verdict),
          adjudicatorId: s.annotatorId('adjudicate'),
          ...(f.note !== undefined ? { note: f.note } : {}),
        })
        printResult(
          Boolean(f.json),
          { ...r, item: target.page.item.extId, variant: target.variant, unit: target.number },
          () =>
            `Gold for ${describeTarget(target)}: ${r.gold.verdict} (${countOf(r.open, 'disputed target')} still open)`,
        )
      })
    })
}
