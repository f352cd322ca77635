import { resolve } from 'node:path'
import type { Command } from 'commander'
import { countOf } from '../../../shared/plural'
import { printResult } from '../util'
import { withSession } from './session'

interface MergeFlags {
  workspace?: string
  dataset?: string
  json?: boolean
}

/** Registers `merge` on the CLI. */
export function registerMergeCommands(program: Command): void {
  program
    .command('merge <bundle>')
    .description(
      "Merge a bundle of one annotator's labels made on another workspace holding the same dataset; all or nothing",
    )
    .option('--workspace <db>', 'workspace file')
    .option('--dataset <name>', 'dataset to merge into (default: the one with the bundle’s name or content)')
    .option('--json', 'print the report as JSON')
    .action(async (bundle: string, flags: MergeFlags) => {
      const report = await withSession(flags.workspace, undefined, async (s) => {
        const into = flags.dataset ? { datasetId: await s.datasetId(flags.dataset) } : {}
        // The app's call wants a full path; a relative one is the person's, from where they stand.
        return s.call('exports.mergeBundle', { source: { path: resolve(bundle) }, ...into })
      })
      printResult(
        flags.json ?? false,
        report,
        () =>
          `Merged ${report.annotator}'s labels into "${report.dataset}": ${report.added} added, ${report.updated} updated, ` +
          `${report.unchanged} unchanged, ${report.kept_local} kept the newer local label; ` +
          `${report.earlier_versions} of them on earlier unit versions, ${countOf(report.recreated_versions, 'unit version')} recreated here` +
          report.recreated
            .map(
              (r) =>
                `\n  recreated ${r.deleted ? 'deleted ' : 'earlier '}${r.kind} of item ${r.item}: ${r.text}`,
            )
            .join(''),
      )
    })
}
