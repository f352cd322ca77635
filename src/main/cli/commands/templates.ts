import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import type { Command } from 'commander'
import { z } from 'zod'
import { CliError, EXIT, printResult } from '../util'
import { withSession } from './session'

interface Flags {
  workspace?: string
  json?: boolean
}

/** A `.json` template file names both parts; any other file is the user prompt alone. */
const TemplateFile = z.strictObject({ system: z.string().optional(), user: z.string().min(1) })

function readTemplateFile(
  file: string,
): { system?: string; user: string } | { user: string; keepSystem: true } {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (extname(file).toLowerCase() !== '.json') {
    if (text.trim() === '') throw new CliError(`${file} is empty: a template needs a user prompt`)
    return { user: text, keepSystem: true }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new CliError(
      `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    )
  }
  const parsed = TemplateFile.safeParse(json)
  if (!parsed.success) throw new CliError(`${file}: ${z.prettifyError(parsed.error)}`)
  return parsed.data
}

/** `templates list|show|set`: the prompt templates, versioned as the Judges view keeps them. */
export function registerTemplatesCommands(program: Command): void {
  const templates = program.command('templates').description('List, show and change prompt templates')
  templates
    .command('list')
    .description('The newest version of every template')
    .option('--workspace <db>', 'workspace file')
    .option('--json', 'print JSON')
    .action(async (f: Flags) => {
      await withSession(f.workspace, undefined, async (s) => {
        const rows = await s.call('judges.templates', {})
        printResult(Boolean(f.json), rows, () =>
          rows.map((t) => `${t.name.padEnd(28)} v${t.version}  (${t.method})`).join('\n'),
        )
      })
    })
  templates
    .command('show <name> [version]')
    .description('One template: its newest version, or the version given')
    .option('--workspace <db>', 'workspace file')
    .option('--json', 'print JSON')
    .action(async (name: string, version: string | undefined, f: Flags) => {
      await withSession(f.workspace, undefined, async (s) => {
        const history = await s.call('judges.templateHistory', { name })
        if (history.length === 0) {
          const names = (await s.call('judges.templates', {})).map((t) => t.name)
          throw new CliError(`No template named "${name}" (there are: ${names.join(', ')})`)
        }
        const t = version === undefined ? history[0] : history.find((h) => String(h.version) === version)
        if (!t)
          throw new CliError(`Template "${name}" has versions ${history.map((h) => h.version).join(', ')}`)
        printResult(Boolean(f.json), t, () =>
          [`# ${t.name} v${t.version}`, ...(t.system ? ['## system', t.system] : []), '## user', t.user].join(
            '\n',
          ),
        )
      })
    })
  templates
    .command('set <name>')
    .description('Save a new version of a template (earlier versions stay, runs point at them)')
    .option('--workspace <db>', 'workspace file')
    .requiredOption(
      '--file <file>',
      'a text file with the user prompt (keeps the system prompt), or JSON {"system","user"}',
    )
    .option('--json', 'print JSON')
    .action(async (name: string, f: Flags & { file: string }) => {
      const body = readTemplateFile(f.file)
      await withSession(f.workspace, undefined, async (s) => {
        const history = await s.call('judges.templateHistory', { name })
        if (history.length === 0)
          throw new CliError(
            `No template named "${name}"; list them with: factlab templates list`,
            EXIT.badInput,
          )
        const system = 'keepSystem' in body ? history[0]?.system : body.system
        const t = await s.call('judges.saveTemplate', {
          name,
          user: body.user,
          ...(system !== undefined ? { system } : {}),
        })
        printResult(Boolean(f.json), t, () => `Saved ${t.name} v${t.version}`)
      })
    })
}
