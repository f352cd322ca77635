import { expect, it } from 'vitest'
import { exportProgressText } from '../../src/shared/exportProgress'
import { callCountWords } from '../../src/shared/runCalls'

// A count of one reads in the singular wherever a sentence is built from a count (shared/plural.ts).
it('a run of one planned call and an export of one target read in the singular', () => {
  expect(callCountWords({ status: 'running', calls: 0, cached: 0, callErrors: 0, totalCalls: 1 })).toBe(
    '0 of 1 call',
  )
  expect(callCountWords({ status: 'done', calls: 1, cached: 0, callErrors: 0, totalCalls: 0 })).toBe('1 call')
  expect(exportProgressText(1, 1)).toBe('Exporting: 1 of 1 target written (100%)')
  expect(exportProgressText(3, 10)).toBe('Exporting: 3 of 10 targets written (30%)')
})
