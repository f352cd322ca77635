import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pickDataset } from '../../src/main/cli/datasetKey'
import { seedWorkspace, wsFile } from '../export/seed'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const FIXTURES = join(__dirname, '..', 'fixtures', 'import')

describe('--dataset', () => {
  const datasets = [
    { id: 1, name: 'wikievalfacts' },
    { id: 2, name: '7' },
  ]

  it('takes a name first, then the number the app shows, and lists both when neither matches', () => {
    expect(pickDataset(datasets, 'wikievalfacts')).toBe(1)
    expect(pickDataset(datasets, '1')).toBe(1)
    expect(pickDataset(datasets, '#1')).toBe(1)
    // A dataset called "7" is found by its name, not taken for a number.
    expect(pickDataset(datasets, '7')).toBe(2)
    expect(() => pickDataset(datasets, '3')).toThrow(
      'No dataset named "3" in this workspace; it has "wikievalfacts" (#1), "7" (#2)',
    )
    expect(() => pickDataset([], 'x')).toThrow('(it has none)')
  })

  it('accepts the number in a command, with pluralised counts in the import summary', async () => {
    const dir = tmp()
    const { ws } = seedWorkspace(wsFile(dir))
    ws.close()
    const metrics = await cli(['metrics', '--workspace', wsFile(dir), '--dataset', '1', '--json'])
    expect(metrics.code).toBe(0)
    expect(JSON.parse(metrics.out).dataset).toBe('wikievalfacts')
    const judged = await cli([
      'judge',
      'run',
      '--workspace',
      wsFile(dir),
      '--dataset',
      '#1',
      '--provider',
      'lexical',
      '--model',
      'rougeL',
      '--method',
      'lexical',
    ])
    expect(judged.code).toBe(0)

    const imported = await cli([
      'import',
      join(FIXTURES, 'wikievalfacts.csv'),
      '--workspace',
      join(dir, 'fresh.factlab'),
    ])
    expect(imported.code).toBe(0)
    expect(imported.out).toMatch(/labels? by 1 annotator(?!s)/)
    expect(imported.out).toContain('1 fact label key matched no fact')
  })
})
