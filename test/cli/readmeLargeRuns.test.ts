import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { TEST_KEY } from '../runs/helpers'

/**
 * The README's examples of batch mode, prompt caching, `models probe` and prices, run as written,
 * in order, against the fake provider, so the README cannot drift from what the product does.
 * The lines are taken from the README itself: a command the README shows is a command run here,
 * and a line `# → …` under it is a line that command must print (`…` standing for anything).
 *
 * What a person has and the test has not: a provider's key (the test's own key is used), their
 * local server's address (`LOCAL`: the fake's), and the providers' own addresses, which the
 * provider SDKs take from ANTHROPIC_BASE_URL when no --base-url is given (here: the fake's).
 */

const README = join(__dirname, '../../README.md')
const SAMPLES = join(__dirname, '../fixtures/import')

const dir = tmpDirs()
const fake = fakeLlmForFile(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'])

let cwd = ''
beforeAll(() => {
  cwd = process.cwd()
  process.env.ANTHROPIC_BASE_URL = fake().anthropicUrl
  // A batch ends at its first status check: the run does not wait out the poll's backoff.
  fake().batches.plan = { steps: 1 }
})
afterAll(() => {
  process.chdir(cwd)
  delete process.env.ANTHROPIC_BASE_URL
})

interface Step {
  line: string
  prints: string[]
}

/** The `sh` blocks of the README section named, as commands with the lines each must print. */
function steps(markdown: string, heading: string): Step[] {
  const from = markdown.indexOf(`### ${heading}`)
  expect(from, `the README has a section "${heading}"`).toBeGreaterThanOrEqual(0)
  const end = markdown.indexOf('\n### ', from + 1)
  const section = markdown.slice(from, end < 0 ? undefined : end)
  const out: Step[] = []
  for (const block of section.matchAll(/```sh\n([\s\S]*?)```/g))
    for (const raw of block[1]!.split('\n')) {
      const line = raw.trim()
      if (line === '') continue
      if (line.startsWith('# → ')) out.at(-1)!.prints.push(line.slice('# → '.length))
      else if (!line.startsWith('#')) out.push({ line, prints: [] })
    }
  return out
}

/** A line as bash splits it: words apart at spaces, "double quotes" kept whole, $NAME expanded. */
function words(line: string, vars: Record<string, string>): string[] {
  const code = line.replace(/\s+#\s.*$/, '')
  return [...code.matchAll(/"([^"]*)"|(\S+)/g)].map((m) =>
    (m[1] ?? m[2]!).replace(/\$(\w+)/g, (_, name: string) => {
      const value = vars[name]
      if (value === undefined) throw new Error(`The README uses $${name}, which no earlier line sets`)
      return value
    }),
  )
}

/** A printed line the README shows, as a pattern: `…` stands for anything. */
const printedLine = (shown: string): RegExp =>
  new RegExp(
    `^${shown
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*?')}$`,
    'm',
  )

it("the README's large-run examples run as written, in order, and print what it shows", async () => {
  const all = steps(readFileSync(README, 'utf8'), 'Large runs')
  // The README says these exist: one example each, all taken.
  const commands = all.map((s) => s.line)
  for (const what of ['--mode batch', 'judge status', '--method prompt-tf', 'models probe', 'models price'])
    expect(
      commands.some((c) => c.includes(what)),
      what,
    ).toBe(true)

  process.chdir(dir())
  // What the shell above these examples set: the sample files. LOCAL is the person's server.
  const vars: Record<string, string> = { F: SAMPLES }
  const theirs: Record<string, string> = { LOCAL: fake().openaiUrl }
  for (const step of all) {
    const [first, ...rest] = words(step.line, vars)
    const assign = (first === 'export' ? rest[0]! : first!).match(/^(\w+)=(.*)$/)
    if (assign) {
      const [, name, value] = assign as unknown as [string, string, string]
      // A key is the person's own: the fake takes the test's.
      if (name.endsWith('_API_KEY')) process.env[name] = TEST_KEY
      else vars[name] = theirs[name] ?? value
      continue
    }
    expect(first, step.line).toBe('factlab')
    const r = await cli(rest)
    expect(r.code, `${step.line}\n${r.err}`).toBe(0)
    const printed = `${r.out}${r.err}`
    for (const shown of step.prints)
      expect(printed, `${step.line}\nshould print: ${shown}`).toMatch(printedLine(shown))
  }
})
