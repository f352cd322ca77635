import type { Command } from 'commander'
import { countOf } from '../../../shared/plural'
import { stoppedImportText } from '../../../shared/stoppedImport'
import { backupTo, listBackups, restoreBackup, rollingBackup } from '../../store/backups'
import { CliError, EXIT, printResult } from '../util'
import { withSession, withWorkspace } from './session'

/** `datasets`, `backup`, `backups` and `restore`: looking after the workspace file itself. */
export function registerWorkspaceCommands(program: Command): void {
  program
    .command('datasets')
    .description('List the datasets of a workspace (#number, name) with their sizes and label progress')
    .requiredOption('--workspace <file>', 'workspace file')
    .option('--json', 'print JSON')
    .action(async (opts: { workspace: string; json?: boolean }) => {
      await withSession(opts.workspace, undefined, async (session) => {
        const rows = (await session.call('datasets.list', {})).map((d) => ({
          id: d.id,
          name: d.name,
          schema: d.labelSchema.name,
          items: d.items,
          candidates: d.candidates,
          units: d.units,
          targets: d.targets,
          labelled: Object.fromEntries(d.labelledBy.map((l) => [l.name, l.labelled])),
        }))
        // Hidden from the list, but holding space and a name: said after it (on stderr with --json,
        // so the JSON stays the list of datasets).
        const stopped = (await session.call('datasets.stoppedImports', {})).map(
          (s) => `${stoppedImportText(s)} (factlab withdraw-import "${s.name}" --workspace <db>)`,
        )
        if (opts.json && stopped.length) process.stderr.write(`${stopped.join('\n')}\n`)
        const after = !opts.json && stopped.length ? `\n\n${stopped.join('\n')}` : ''
        printResult(
          Boolean(opts.json),
          rows,
          () =>
            (rows.length === 0 && stopped.length === 0
              ? 'No datasets yet. Import one with: factlab import <file> --workspace <db>'
              : rows
                  .map((r) => {
                    const progress = Object.entries(r.labelled)
                      .map(([who, n]) => `${who} ${n}/${r.targets}`)
                      .join(', ')
                    // The number is what --dataset takes when a name is awkward to type (datasetKey.ts).
                    return `#${r.id}  ${r.name}  (${r.schema})  ${countOf(r.items, 'item')}, ${countOf(r.candidates, 'candidate')}, ${countOf(r.units, 'unit')}${progress ? `  — ${progress}` : ''}`
                  })
                  .join('\n')
            ).trim() + after,
        )
      })
    })

  program
    .command('withdraw-import <name>')
    .description('Withdraw an import that stopped part-way (a full disk), freeing its space and its name')
    .requiredOption('--workspace <file>', 'workspace file')
    .option('--json', 'print JSON')
    .action(async (name: string, opts: { workspace: string; json?: boolean }) => {
      await withSession(opts.workspace, undefined, async (session) => {
        const found = (await session.call('datasets.stoppedImports', {})).find((s) => s.name === name)
        if (!found)
          throw new CliError(`No stopped import named "${name}" in this workspace; nothing was changed`)
        const r = await session.call('datasets.withdrawImport', { datasetId: found.datasetId })
        printResult(
          Boolean(opts.json),
          r,
          () => `Withdrew the incomplete import "${r.name}" (${countOf(r.items, 'item')})`,
        )
      })
    })

  program
    .command('backup')
    .description('Copy the workspace with SQLite online backup (safe while the app is open)')
    .requiredOption('--workspace <file>', 'workspace file')
    .option('--out <file>', 'where to write the copy (default: the rolling backups folder)')
    .option('--json', 'print JSON')
    .action(async (opts: { workspace: string; out?: string; json?: boolean }) => {
      await withWorkspace(opts.workspace, async (ws) => {
        const file = opts.out ? await backupTo(ws.db, opts.out) : await rollingBackup(ws.db, ws.file)
        printResult(Boolean(opts.json), { backup: file }, () => `Backed up to ${file}`)
      })
    })

  program
    .command('backups')
    .description('List the rolling backups of a workspace, newest first')
    .requiredOption('--workspace <file>', 'workspace file')
    .option('--json', 'print JSON')
    .action((opts: { workspace: string; json?: boolean }) => {
      const list = listBackups(opts.workspace)
      printResult(Boolean(opts.json), list, () =>
        list.length === 0 ? 'No backups yet.' : list.map((b) => `${b.createdAt}  ${b.file}`).join('\n'),
      )
    })

  program
    .command('restore')
    .description(
      'Replace a workspace (closed) with one of its backups; the current file is kept as .before-restore',
    )
    .requiredOption('--workspace <file>', 'workspace file')
    .argument('[backup]', 'backup file (default: the newest rolling backup)')
    .option('--json', 'print JSON')
    .action((backup: string | undefined, opts: { workspace: string; json?: boolean }) => {
      const from = backup ?? listBackups(opts.workspace)[0]?.file
      if (!from) throw new CliError(`No backups found for ${opts.workspace}`, EXIT.badInput)
      restoreBackup(from, opts.workspace)
      printResult(Boolean(opts.json), { restored: from }, () => `Restored ${opts.workspace} from ${from}`)
    })
}
