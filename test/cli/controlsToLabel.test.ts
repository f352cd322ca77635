import { expect, it } from 'vitest'
import { countWarning, markedLine, toLabelLine } from '../../src/main/cli/commands/controls'

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

// `--from-gold --count 20` on a 27-target dataset reads as what it did: most of the dataset.
it("says how many of the dataset's targets are controls, and warns when that is most of them", () => {
  expect(markedLine({ added: 19, already: 1, controls: 20, targets: 27, skipped: 0 })).toBe(
    '19 newly marked, 1 already was; 20 controls in all, of 27 targets (74%)',
  )
  expect(markedLine({ added: 1, already: 0, controls: 1, targets: 1, skipped: 2 })).toBe(
    "1 marked; 1 control in all, of 1 target (100%); 2 targets skipped: the dataset's sources disagree on them",
  )
  expect(countWarning({ controls: 20, targets: 27, toLabel: 7 }, 'wikievalfacts')).toContain(
    'factlab controls clear --all --dataset wikievalfacts',
  )
  expect(countWarning({ controls: 13, targets: 27, toLabel: 14 }, 'wikievalfacts')).toBeUndefined()
  // Every target a control was asked for with --every-target and is said by the line above.
  expect(countWarning({ controls: 27, targets: 27, toLabel: 0 }, 'wikievalfacts')).toBeUndefined()
})
