import type { Command } from 'commander'
import { describeGoldRule, GOLD_TIE_RULES, type GoldRule, type GoldTieRule } from '../../../shared/goldRule'
import { GoldRuleError, goldRuleHistory, goldRuleOf, setGoldRule } from '../../labels/ruleService'
import { findDatasetByName } from '../../store/repos/datasets'
import { CliError, EXIT, parsePositiveInt, printResult, withWorkspace } from '../util'

interface GoldRuleFlags {
  workspace?: string
  dataset: string
  majority?: boolean
  tie?: string
  minLabels?: string
  annotator?: string
  by?: string
  json?: boolean
}

/** The rule the flags state, or null when they state none (then the command shows the rule). */
function ruleFromFlags(f: GoldRuleFlags, current: GoldRule): GoldRule | null {
  const majority = f.majority || f.tie !== undefined || f.minLabels !== undefined
  if (f.annotator !== undefined && majority)
    throw new CliError(
      'give either --annotator or the majority options (--tie, --min-labels), not both',
      EXIT.usage,
    )
  if (f.annotator !== undefined) return { kind: 'annotator', annotator: f.annotator }
  if (!majority) return null
  if (f.tie !== undefined && !(GOLD_TIE_RULES as readonly string[]).includes(f.tie))
    throw new CliError(`--tie must be one of ${GOLD_TIE_RULES.join(', ')}, got "${f.tie}"`, EXIT.usage)
  const base = current.kind === 'majority' ? current : { tie: 'none' as const, minLabels: 1 }
  return {
    kind: 'majority',
    tie: (f.tie as GoldTieRule | undefined) ?? base.tie,
    minLabels: parsePositiveInt('--min-labels', f.minLabels) ?? base.minLabels,
  }
}

/** `gold-rule`: show or set how a dataset's gold is made where nobody adjudicated. */
export function registerGoldRuleCommands(program: Command): void {
  program
    .command('gold-rule')
    .description(
      "Show or set how a dataset's gold is made: majority with a tie rule and a minimum number of labels, or one annotator's labels. Adjudicated gold always wins; a change recomputes gold and is kept in the history.",
    )
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--dataset <name>', 'dataset name')
    .option('--majority', 'gold is the majority of the annotators (the default rule)')
    .option(
      '--tie <rule>',
      `majority: what a tie gives — ${GOLD_TIE_RULES.join(', ')} (none: no gold until adjudicated)`,
    )
    .option('--min-labels <n>', 'majority: targets with fewer labels have no gold')
    .option('--annotator <name>', "this annotator's labels are the gold")
    .option('--by <name>', 'who changes the rule (kept in the history)')
    .option('--json', 'print JSON')
    .action(async (f: GoldRuleFlags) => {
      await withWorkspace(f.workspace, async (ws) => {
        const dataset = findDatasetByName(ws.db, f.dataset)
        if (!dataset) throw new CliError(`No dataset named "${f.dataset}" in ${ws.file}`)
        const rule = ruleFromFlags(f, goldRuleOf(ws.db, dataset.id))
        let change = null
        if (rule) {
          try {
            change = setGoldRule(ws.db, dataset.id, rule, f.by ?? null)
          } catch (error) {
            if (error instanceof GoldRuleError) throw new CliError(error.message)
            throw error
          }
        }
        const current = goldRuleOf(ws.db, dataset.id)
        const history = goldRuleHistory(ws.db, dataset.id)
        printResult(
          Boolean(f.json),
          { dataset: dataset.name, rule: current, description: describeGoldRule(current), change, history },
          () =>
            [
              `${dataset.name}: ${describeGoldRule(current)}`,
              ...(rule && !change ? ['(unchanged: that rule was already in force)'] : []),
              ...(change
                ? [
                    `gold targets ${change.goldBefore} → ${change.goldAfter}; ${change.moved} targets changed gold`,
                  ]
                : []),
            ].join('\n'),
        )
      })
    })
}
