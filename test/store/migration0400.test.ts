import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { createRuns } from '../../src/main/runs/create'
import { LATEST_VERSION, schemaVersion } from '../../src/main/store/connection'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

const scopeOf = (ws: Workspace, id: number) =>
  ws.db.prepare("SELECT json_extract(config, '$.settings.naScope') FROM runs WHERE id = ?").pluck().get(id)

/**
 * Runs from before the whole-call rule read a broken FaaF reply argument by argument and recorded
 * no rule: made here with today's code, their rule taken out, and the schema set back to 0290.
 */
function olderRuns(): { file: string; faaf: number; bare: number; prompt: number } {
  const file = `${tmp()}/w.factlab`
  const ws = Workspace.open(file)
  const ds = createDataset(ws.db, { name: 'd', labelSchema: FAAF_SCHEMA })
  const item = ws.content.insertItem(ds.id, { extId: 'q1', question: 'Q?', reference: 'R.' }, 0)
  ws.content.insertCandidate(item, { variant: 'answer', text: 'A.' })
  ws.content.insertUnit(item, { kind: 'fact', text: 'A fact.' })
  const run = (method: string) =>
    createRuns(ws.db, { datasetId: ds.id, provider: 'openai', model: 'm', method })[0]!
  const faaf = run('faaf-tf-cite')
  const bare = run('faaf-tfn')
  const prompt = run('prompt-tf')
  ws.db.prepare("UPDATE runs SET config = json_remove(config, '$.settings.naScope') WHERE id = ?").run(faaf)
  ws.db.prepare("UPDATE runs SET config = json_remove(config, '$.settings') WHERE id = ?").run(bare)
  ws.db.pragma('user_version = 290')
  ws.close()
  return { file, faaf, bare, prompt }
}

describe('migration 0400: earlier FaaF runs keep the rule that read them', () => {
  it('gives runs without a recorded rule the per-argument one, and leaves other methods alone', () => {
    const { file, faaf, bare, prompt } = olderRuns()
    const ws = Workspace.open(file)
    try {
      expect(schemaVersion(ws.db)).toBe(LATEST_VERSION)
      expect(scopeOf(ws, faaf)).toBe('field')
      expect(scopeOf(ws, bare)).toBe('field')
      expect(scopeOf(ws, prompt)).toBeNull()
      // A run made now records the paper's rule, whatever the earlier runs hold.
      const ds = ws.db.prepare('SELECT id FROM datasets').pluck().get() as number
      const [now] = createRuns(ws.db, { datasetId: ds, provider: 'openai', model: 'm', method: 'faaf-tf' })
      expect(scopeOf(ws, now!)).toBe('call')
    } finally {
      ws.close()
    }
  })
})
