// cli/ is the `factlab` command line: one file per command group under commands/, every command
// on the services the composition root (app/services.ts) builds, contract calls through `dispatch`.
import { Command, CommanderError } from 'commander'
import { ZodError } from 'zod'
import { zodProblems } from '../../shared/zodProblems'
import { ServiceError, unavailableError } from '../app/errors'
import { WorkspaceError } from '../store/connection'
import { quietOnBrokenPipe } from './brokenPipe'
import { registerAnnotatorsCommands } from './commands/annotators'
import { registerCallCommands } from './commands/call'
import { registerControlsCommands } from './commands/controls'
import { registerExportCommands } from './commands/export'
import { registerGoldRuleCommands } from './commands/goldRule'
import { registerImportCommands } from './commands/import'
import { registerJudgeCommands } from './commands/judge'
import { registerLabelCommands } from './commands/label'
import { registerMergeCommands } from './commands/merge'
import { registerMetricsCommands } from './commands/metrics'
import { registerModelsCommands } from './commands/models'
import { registerProjectCommands } from './commands/projects'
import { registerServeCommand } from './commands/serve'
import { registerTemplatesCommands } from './commands/templates'
import { registerUnitsCommands } from './commands/units'
import { registerUnitsEditCommands } from './commands/unitsEdit'
import { registerWorkspaceCommands } from './commands/workspace'
import { CliError, EXIT } from './util'

export function buildProgram(): Command {
  const program = new Command()
    .name('factlab')
    .description('FactLab: fact-level ground truth and LLM-judge evaluation, from the command line')
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
  registerImportCommands(program)
  registerExportCommands(program)
  registerMergeCommands(program)
  registerProjectCommands(program)
  registerControlsCommands(program)
  registerWorkspaceCommands(program)
  registerUnitsCommands(program)
  registerJudgeCommands(program)
  registerMetricsCommands(program)
  registerModelsCommands(program)
  registerLabelCommands(program)
  registerGoldRuleCommands(program)
  registerUnitsEditCommands(program)
  registerAnnotatorsCommands(program)
  registerTemplatesCommands(program)
  registerCallCommands(program)
  registerServeCommand(program)
  for (const cmd of program.commands) cmd.exitOverride()
  return program
}

/**
 * The `unavailable` refusal for passing store trouble, from a service (ServiceError) or straight
 * from SQLite; null for anything else.
 */
function passingTrouble(error: unknown): ServiceError | null {
  if (error instanceof ServiceError) return error.code === 'unavailable' ? error : null
  return unavailableError(error)
}

/** Runs the CLI and returns its exit code: 0 done, 1 bad input, 2 usage, 75 try again later. */
export async function runCli(argv: string[]): Promise<number> {
  quietOnBrokenPipe(process.stdout)
  try {
    await buildProgram().parseAsync(argv, { from: 'user' })
    return EXIT.ok
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok
      if (error.code === 'commander.help') return EXIT.ok
      return EXIT.usage
    }
    // Store trouble met outside a call (a command reading the workspace itself): try again later.
    const passing = error instanceof CliError ? null : passingTrouble(error)
    if (passing) {
      process.stderr.write(`factlab: ${passing.message}\n`)
      return EXIT.tempFail
    }
    // A ZodError's message is its issues as JSON; whatever let one through, print it readably.
    const message =
      error instanceof ZodError ? zodProblems(error) : error instanceof Error ? error.message : String(error)
    if (message) process.stderr.write(`factlab: ${message}\n`)
    if (error instanceof CliError) return error.exitCode
    // A workspace another FactLab was writing to (or a full disk) when it had to be brought up to date.
    if (error instanceof WorkspaceError) return error.trouble ? EXIT.tempFail : EXIT.badInput
    return EXIT.badInput
  }
}

const isEntry = process.argv[1] !== undefined && /cli(\/index)?\.(ts|js|mjs)$/.test(process.argv[1])
if (isEntry) {
  runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code
  })
}
