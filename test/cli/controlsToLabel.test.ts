import { expect, it } from 'vitest'
import { toLabelLine } from '../../src/main/cli/commands/controls'

// `factlab controls set` ends with what is left to label; a dataset of one target reads as one.
it('says a dataset whose every target is a control in words that fit one target or many', () => {
  expect(toLabelLine({ targets: 1, toLabel: 0 })).toBe(
    'The one target is a control: nothing is left to label, and labels given count only as control answers',
  )
  expect(toLabelLine({ targets: 1200, toLabel: 0 })).toBe(
    'Every one of the 1,200 targets is a control: nothing is left to label, and labels given count only as control answers',
  )
  expect(toLabelLine({ targets: 1, toLabel: 1 })).toBe(
    '1 of 1 target left to label (controls are left out of progress, agreement, cost and judge figures)',
  )
})
