import { describe, expect, it } from 'vitest'
import { chartFileName } from '../../src/renderer/src/views/compare/chartName'

describe('saved chart file names', () => {
  it('name the dataset and the chart', () => {
    expect(chartFileName('wikievalfacts', 'error-by-variant', 'png')).toBe(
      'wikievalfacts-error-by-variant.png',
    )
  })

  it('keep only characters every file system accepts', () => {
    expect(chartFileName('SummEval / dev: 1–5', 'cost-error', 'svg')).toBe('SummEval_dev_1_5-cost-error.svg')
    expect(chartFileName('../../etc', 'cost-error', 'svg')).toBe('etc-cost-error.svg')
    expect(chartFileName('???', 'cost-error', 'png')).toBe('dataset-cost-error.png')
  })
})
