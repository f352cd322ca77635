import type { Command } from 'commander'
import { printResult } from '../util'
import { withSession } from './session'

interface Flags {
  workspace?: string
  json?: boolean
}

/** `annotators [list]` and `annotators add NAME`: who labels in a workspace. */
export function registerAnnotatorsCommands(program: Command): void {
  const annotators = program
    .command('annotators')
    .description('List the annotators of a workspace, or add one')
  const list = async (f: Flags) => {
    await withSession(f.workspace, undefined, async (s) => {
      const rows = await s.call('workspace.annotators', {})
      printResult(Boolean(f.json), rows, () =>
        rows.length === 0
          ? 'No annotators yet. Add one with: factlab annotators add NAME'
          : // A source is listed for its name (renamable, a gold rule may follow it), marked so
            // nobody takes it for someone to label as.
            rows
              .map((a) =>
                a.kind === 'source' ? `${a.name}  (source: a dataset's reference labels)` : a.name,
              )
              .join('\n'),
      )
    })
  }
  annotators
    .command('list', { isDefault: true })
    .description('Everyone who labels in this workspace')
    .option('--workspace <db>', 'workspace file')
    .option('--json', 'print JSON')
    .action(list)
  annotators
    .command('add <name>')
    .description('Add an annotator (an existing name is kept as it is)')
    .option('--workspace <db>', 'workspace file')
    .option('--json', 'print JSON')
    .action(async (name: string, f: Flags) => {
      await withSession(f.workspace, undefined, async (s) => {
        const before = new Set((await s.call('workspace.annotators', {})).map((a) => a.id))
        const a = await s.call('workspace.ensureAnnotator', { name })
        const added = !before.has(a.id)
        printResult(Boolean(f.json), { ...a, added }, () =>
          added ? `Added ${a.name}` : `${a.name} was already an annotator`,
        )
      })
    })
}
