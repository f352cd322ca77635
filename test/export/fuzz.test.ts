import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mergeBundle } from '../../src/main/export'
import { pyDict, pyString } from '../../src/main/export/pyLiteral'
import { parsePythonLiteral } from '../../src/main/import/pyLiteral'
import { tmpDirs } from '../helpers/tmp'
import { seedWorkspace, wsFile } from './seed'

const tmp = tmpDirs()

describe('Python literals written for WikiEvalFacts', () => {
  it('read back as the same text, whatever characters it holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(parsePythonLiteral(pyString(s))).toBe(s)
      }),
    )
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(parsePythonLiteral(pyString(s))).toBe(s)
      }),
    )
  })

  it('make dicts that read back entry for entry', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.string(), fc.constantFrom('True', 'False', 'Not clear')), {
          selector: (e) => e[0],
        }),
        (entries) => {
          expect(parsePythonLiteral(pyDict(entries))).toEqual(Object.fromEntries(entries))
        },
      ),
    )
  })
})

describe('merging arbitrary files', () => {
  it('either merges or refuses with a message, and a refusal changes nothing', async () => {
    const dir = tmp()
    const { ws } = seedWorkspace(wsFile(dir))
    const count = () =>
      ws.db.prepare('SELECT (SELECT COUNT(*) FROM labels) + (SELECT COUNT(*) FROM label_history) AS n').get()
    const before = count()
    const header =
      '{"format":"factlab-bundle","version":1,"dataset":{"name":"wikievalfacts","contentHash":"' +
      '0'.repeat(64) +
      '"},"annotator":{"name":"Z"},"exportedAt":"x","labels":1}\n'
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => header + s),
          fc.json().map((j) => header + j),
        ),
        async (text) => {
          const file = join(dir, 'fuzz.jsonl')
          writeFileSync(file, text)
          await expect(mergeBundle(ws, file)).rejects.toThrow(/\S/)
          expect(count()).toEqual(before)
        },
      ),
      { numRuns: 60 },
    )
    ws.close()
  })
})
