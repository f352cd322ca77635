import { describe, expect, it } from 'vitest'
import { runChecks } from '../../scripts/lib/checks.js'

const node = process.execPath
const say = (name: string, code: number, text: string) => ({
  name,
  shows: `say ${name}`,
  cmd: [
    node,
    '-e',
    `console.log(${JSON.stringify(`${text} 1`)}); console.error(${JSON.stringify(`${text} 2`)}); process.exit(${code})`,
  ],
})

describe("npm test's checks, side by side", () => {
  it('runs every check though one fails, shows each output whole under its name, and names the failed one last', async () => {
    const printed: string[] = []
    const ok = await runChecks(
      [say('types', 1, 'bad type'), say('lint', 0, 'clean'), say('rules', 0, 'held')],
      {
        cwd: process.cwd(),
        atOnce: 2,
        print: (t) => printed.push(t),
      },
    )
    expect(ok).toBe(false)
    expect(printed).toHaveLength(4)
    const failed = printed.find((t) => t.includes('types'))!
    expect(failed).toMatch(/^\n── ✗ types \(say types\) FAILED in \d+\.\d s\nbad type 1\nbad type 2$/)
    expect(printed.find((t) => t.includes('lint'))).toMatch(
      /── ✓ lint \(say lint\) passed in .*\nclean 1\nclean 2$/,
    )
    expect(printed.find((t) => t.includes('rules'))).toContain('held 1\nheld 2')
    expect(printed.at(-1)).toBe('\n1 of 3 checks failed: types (output above, under each name)')
  })

  it('passes when all pass, and says so naming them', async () => {
    const printed: string[] = []
    const ok = await runChecks([say('a', 0, 'x'), say('b', 0, 'y')], {
      cwd: process.cwd(),
      atOnce: 3,
      print: (t) => printed.push(t),
    })
    expect(ok).toBe(true)
    expect(printed.at(-1)).toMatch(/^\nAll 2 checks passed: (a, b|b, a)$/)
  })

  it('names a command that cannot start as the failure', async () => {
    const printed: string[] = []
    const ok = await runChecks([{ name: 'gone', shows: 'gone', cmd: ['/nonexistent/tool'] }], {
      cwd: process.cwd(),
      atOnce: 1,
      print: (t) => printed.push(t),
    })
    expect(ok).toBe(false)
    expect(printed[0]).toContain('could not start /nonexistent/tool')
  })
})
