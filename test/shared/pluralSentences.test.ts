import { expect, it } from 'vitest'
import { everyTargetRefusal } from '../../src/main/projects/controlSample'
import { parseControlLines } from '../../src/shared/controlLines'
import { exportProgressText } from '../../src/shared/exportProgress'
import { untimedWords } from '../../src/shared/humanCost'
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

// Sentences that had a plural rule of their own, now through countOf: a count of one is singular.
it('a refusal to make the only target a control, a control line of one value and one untimed label read in the singular', () => {
  expect(everyTargetRefusal(1)).toContain(
    'this would make the one target a control and leave nothing to label',
  )
  expect(everyTargetRefusal(1200)).toContain('this would make all 1,200 targets controls')
  expect(parseControlLines('q1').problems[0]?.problem).toMatch(/^1 value where 4 \(or 2\) are expected/)
  expect(untimedWords(1)).toBe('1 untimed label left out')
})
