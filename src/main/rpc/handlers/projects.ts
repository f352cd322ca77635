import { existsSync, mkdirSync } from 'node:fs'
import { dirname, isAbsolute, join } from 'node:path'
import type { projectsCalls } from '../../../shared/contract/projects'
import { describeControlProblems } from '../../../shared/controlLines'
import { SourceError, withSource } from '../../annotate/upload'
import type { AppContext } from '../../app/context'
import { ServiceError } from '../../app/errors'
import {
  guidelinesReadVersion,
  guidelinesVersions,
  markGuidelinesRead,
  mustReadGuidelines,
  saveGuidelines,
} from '../../guidelines/guidelines'
import { resolveControlLines } from '../../projects/controlLines'
import { DEFAULT_CONTROL_SHARE } from '../../projects/controlSample'
import {
  clearControls,
  goldTargets,
  listControls,
  referenceControlAnswers,
  setControls,
} from '../../projects/controls'
import { projectDashboard } from '../../projects/dashboard'
import { readDashboardEarly } from '../../projects/dashboardInBackground'
import { peopleOutsidePlan } from '../../projects/outsidePlan'
import { exportPackage } from '../../projects/packageExport'
import { openPackage } from '../../projects/packageOpen'
import { refuseLeadWorkOnLaptop } from '../../projects/packageOwner'
import { getPlan, setPlan } from '../../projects/plan'
import { now } from '../../store/repos/rows'
import type { Handlers } from '../dispatch'

/**
 * The app's own package file for a person: `<base>.factlab-package.jsonl`, numbered when that is
 * taken, since a package never overwrites one handed out before (packageExport.ts).
 */
function freeName(base: string): string {
  const name = (n: number) => `${base}${n === 1 ? '' : `-${n}`}.factlab-package.jsonl`
  let n = 1
  while (existsSync(name(n))) n++
  return name(n)
}

export function projectsHandlers(ctx: AppContext): Pick<Handlers, keyof typeof projectsCalls> {
  const db = () => ctx.workspace.db
  return {
    'projects.plan': ({ datasetId }) => getPlan(db(), datasetId),
    'projects.setPlan': (input) => {
      const plan = setPlan(db(), input)
      ctx.events.emit('labels.changed', { datasetId: input.datasetId, targetIds: [] })
      return plan
    },
    'projects.dashboard': async ({ datasetId }) => {
      // A large dataset's label blocks are read on the second core meanwhile.
      await readDashboardEarly(db(), datasetId)
      return projectDashboard(db(), datasetId)
    },
    'projects.guidelines': ({ datasetId, annotatorId }) => {
      const [current = null, ...history] = guidelinesVersions(db(), datasetId)
      return {
        current,
        history,
        mustRead: annotatorId === undefined ? false : mustReadGuidelines(db(), datasetId, annotatorId),
        readVersion: annotatorId === undefined ? null : guidelinesReadVersion(db(), datasetId, annotatorId),
      }
    },
    'projects.saveGuidelines': ({ datasetId, body, author }) => {
      refuseLeadWorkOnLaptop(db(), datasetId, 'guidelines')
      const saved = saveGuidelines(db(), datasetId, body, author)
      ctx.events.emit('guidelines.changed', { datasetId, version: saved.version })
      return saved
    },
    'projects.readGuidelines': ({ datasetId, annotatorId, version }) => {
      markGuidelinesRead(db(), datasetId, annotatorId, version)
      return { ok: true as const }
    },
    'projects.setControls': ({
      datasetId,
      fromGold,
      allGold,
      sample,
      everyTarget,
      preview,
      answers,
      lines,
    }) => {
      refuseLeadWorkOnLaptop(db(), datasetId, 'controls')
      const typed = lines === undefined ? null : resolveControlLines(db(), datasetId, lines)
      if (typed && typed.problems.length > 0)
        throw new ServiceError(
          'bad_input',
          `No controls were marked. Not understood: ${describeControlProblems(typed.problems)}`,
        )
      // With no gold on a target, the dataset's own reference labels are its known answer.
      const reference = allGold ? referenceControlAnswers(db(), datasetId) : null
      const r = setControls(
        db(),
        datasetId,
        {
          fromGold: allGold ? [...fromGold, ...goldTargets(db(), datasetId)] : fromGold,
          answers: typed ? [...answers, ...typed.answers] : answers,
          fromReference: reference?.answers ?? [],
          // Gold answers are a pool to draw controls from, not the project's work.
          ...(allGold ? { sample: sample ?? { share: DEFAULT_CONTROL_SHARE } } : {}),
          everyTarget,
          preview,
        },
        now(),
      )
      return { ...r, skipped: reference?.disagreeing ?? 0 }
    },
    'projects.clearControls': ({ datasetId, targetIds }) => {
      refuseLeadWorkOnLaptop(db(), datasetId, 'controls')
      return clearControls(db(), datasetId, targetIds)
    },
    'projects.controls': ({ datasetId }) => listControls(db(), datasetId),
    'projects.outsidePlan': ({ datasetId }) => ({ people: peopleOutsidePlan(db(), datasetId) }),
    'projects.exportPackage': ({ datasetId, annotator, out }) => {
      getPlan(db(), datasetId)
      // Before the exports folder is made: a refused package leaves nothing behind.
      refuseLeadWorkOnLaptop(db(), datasetId, 'package')
      if (out !== undefined && !isAbsolute(out))
        throw new ServiceError('bad_input', `Give the package's full path (${out} is relative)`)
      const name = (db().prepare('SELECT name FROM datasets WHERE id = ?').get(datasetId) as { name: string })
        .name
      const slug = (s: string) => s.replace(/[^\w.-]+/g, '_').slice(0, 80)
      const file =
        out ?? freeName(join(dirname(ctx.workspace.file), 'exports', `${slug(name)}-${slug(annotator)}`))
      mkdirSync(dirname(file), { recursive: true })
      return exportPackage(ctx.workspace, { datasetId, annotator, out: file })
    },
    'projects.openPackage': async ({ source }) => {
      const report = await withSource(source, { consume: true }, (file) =>
        openPackage(ctx.workspace, file),
      ).catch((e: unknown) => {
        throw e instanceof SourceError ? new ServiceError('bad_input', e.message) : e
      })
      if (!report.alreadyOpen)
        ctx.events.emit('labels.changed', { datasetId: report.datasetId, targetIds: [] })
      return report
    },
  }
}
