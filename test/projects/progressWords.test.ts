import { describe, expect, it } from 'vitest'
import {
  finishWords,
  laptopCoverage,
  timeLeftWords,
} from '../../src/renderer/src/views/project/progressWords'
import type { Dashboard } from '../../src/shared/contract/projects'

/** The forecast fields of a dashboard, the rest left out: the words read nothing else. */
const dash = (over: Partial<Dashboard>) =>
  ({
    projectedHours: 57 / 3600,
    projectedFinish: '2026-12-01',
    labelsPerDay: 4,
    paceDays: 1,
    ...over,
  }) as Dashboard

const cara = { annotator: 'cara', items: 17, targets: 51, done: 39, controls: 3 }

describe('the Progress card’s forecasts say what they measure', () => {
  it('gives the time left as active labelling time and the date as the calendar’s, side by side', () => {
    const d = dash({})
    expect(timeLeftWords(d, 0.5)).toBe('about 57 s of active labelling left at the median time per label')
    expect(finishWords(d, 0.5)).toBe(
      'done around 2026-12-01 by the calendar: 4 labels a day so far (labelling began today)',
    )
    expect(timeLeftWords(d, 1)).toBeNull()
    expect(finishWords(dash({ labelsPerDay: 0 }), 0.5)).toBeNull()
  })

  it('on a laptop, forecasts the package annotator’s share, named as hers', () => {
    const d = dash({ laptop: cara })
    expect(timeLeftWords(d, 0.5)).toBe(
      "about 57 s of active labelling left of cara's share at the median time per label",
    )
    expect(finishWords(d, 0.5)).toMatch(/^cara's share done around 2026-12-01 by the calendar/)
  })

  it('on a laptop, says what the figures cover and why the lead counts her share differently', () => {
    const words = laptopCoverage(cara)
    expect(words).toMatch(/^On this laptop: cara's package only — 17 items, 51 targets and 3 controls\./)
    expect(words).toContain("The lead's dashboard counts the whole plan")
    expect(laptopCoverage({ ...cara, items: 1, targets: 1, controls: 1 })).toContain(
      '1 item, 1 target and 1 control.',
    )
  })
})
