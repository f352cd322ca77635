import { join } from 'node:path'
import { expect, it, describe as suite } from 'vitest'
import { checkDependencies, describe } from '../../scripts/lib/depcheck.js'

const root = join(import.meta.dirname, '..', '..')

suite('import rules (.dependency-cruiser.cjs, run by npm test as `npm run depcheck`)', () => {
  it('reports a deliberate circle, even one closed by a type import, naming its files', async () => {
    const { checked, violations } = await checkDependencies({
      root,
      folders: ['test/fixtures/import-circle'],
    })
    expect(checked).toBe(3)
    expect(violations.map((v) => v.rule)).toContain('no-circular')
    const circle = violations.find((v) => v.rule === 'no-circular')!
    expect([circle.from, ...(circle.cycle ?? [])].sort()).toEqual(
      expect.arrayContaining([
        'test/fixtures/import-circle/invoices.ts',
        'test/fixtures/import-circle/orders.ts',
      ]),
    )
    expect(violations.some((v) => v.from.endsWith('standalone.ts'))).toBe(false)
    expect(describe(circle)).toMatch(
      /^no-circular: .*orders\.ts.*invoices\.ts|^no-circular: .*invoices\.ts.*orders\.ts/,
    )
  })

  it('holds over the whole of src: no circles, services apart from transports, pure stats and shared', async () => {
    const { checked, violations } = await checkDependencies({ root, folders: ['src'] })
    // A check that read no files would find nothing wrong; src has a few hundred.
    expect(checked).toBeGreaterThan(200)
    expect(violations.map(describe)).toEqual([])
  })
})
