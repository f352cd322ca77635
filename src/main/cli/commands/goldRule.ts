import type { Command } from 'commander'
import {
  GOLD_MAJORITY_OF,
  GOLD_TIE_RULES,
  type GoldMajorityOf,
  type GoldRule,
  type GoldTieRule,
} from '../../../shared/goldRule'
import { countOf } from '../../../shared/plural'
import { CliError, EXIT, parsePositiveInt, printResult } from '../util'
import { withSession } from './session'

interface GoldRuleFlags {
  workspace?: string
  dataset: string
  majority?: boolean
  tie?: string
  minLabels?: string
  of?: string
  annotator?: string
  by?: string
  json?: boolean
}

/** The rule the flags state, or null when they state none (then the command shows the rule). */
function ruleFromFlags(f: GoldRuleFlags, current: GoldRule): GoldRule | null {
  const majority = f.majority || f.tie !== undefined || f.minLabels !== undefined || f.of !== undefined
  if (f.annotator !== undefined && majority)
    throw new CliError(
      'give either --annotator or the majority options (--tie, --min-labels, --of), not both',
      EXIT.usage,
    )
  if (f.annotator !== undefined) return { kind: 'annotator', annotator: f.annotator }
  if (!majority) return null
  if (f.tie !== undefined && !(GOLD_TIE_RULES as readonly string[]).includes(f.tie))
    throw new CliError(`--tie must be one of ${GOLD_TIE_RULES.join(', ')}, got "${f.tie}"`, EXIT.usage)
  if (f.of !== undefined && !(GOLD_MAJORITY_OF as readonly string[]).includes(f.of))
    throw new CliError(`--of must be one of ${GOLD_MAJORITY_OF.join(', ')}, got "${f.of}"`, EXIT.usage)
  const base =
    current.kind === 'majority' ? current : { tie: 'none' as const, minLabels: 1, of: 'everyone' as const }
  return {
    kind: 'majority',
    tie: (f.tie as GoldTieRule | undefined) ?? base.tie,
    minLabels: parsePositiveInt('--min-labels', f.minLabels) ?? base.minLabels,
    of: (f.of as GoldMajorityOf | undefined) ?? base.of,
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
    .option('--majority', "gold is the majority of everyone's labels (the default rule)")
    .option(
      '--tie <rule>',
      `majority: what a tie gives — ${GOLD_TIE_RULES.join(', ')} (none: no gold until adjudicated)`,
    )
    .option('--min-labels <n>', 'majority: targets with fewer labels have no gold')
    .option(
      '--of <who>',
      "majority: whose labels count — everyone, or sources (only the dataset's own reference labels, e.g. SummEval's experts)",
    )
    .option('--annotator <name>', "this annotator's labels are the gold")
    .option('--by <name>', 'who changes the rule (kept in the history)')
    .option('--json', 'print JSON')
    .action(async (f: GoldRuleFlags) => {
      await withSession(f.workspace, undefined, async (s) => {
        const datasetId = await s.datasetId(f.dataset)
        const before = await s.call('gold.rule', { datasetId })
        const rule = ruleFromFlags(f, before.rule)
        const after = rule
          ? await s.call('gold.setRule', { datasetId, rule, ...(f.by ? { changedBy: f.by } : {}) })
          : before
        // A change appends to the history; setting the rule already in force does not.
        const change = after.history.length > before.history.length ? after.history.at(-1)! : null
        printResult(
          Boolean(f.json),
          {
            dataset: f.dataset,
            rule: after.rule,
            description: after.description,
            change,
            history: after.history,
          },
          () =>
            [
              `${f.dataset}: ${after.description}`,
              ...(rule && !change ? ['(unchanged: that rule was already in force)'] : []),
              ...(change
                ? [
                    `gold targets ${change.goldBefore} → ${change.goldAfter}; ${countOf(change.moved, 'target')} changed gold`,
                  ]
                : []),
            ].join('\n'),
        )
      })
    })
}
