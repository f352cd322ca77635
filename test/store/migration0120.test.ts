import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { resolveGold } from '../../src/main/labels/gold'
import { goldRuleHistory, goldRuleOf, setGoldRule } from '../../src/main/labels/ruleService'
import { LATEST_VERSION, openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { listDatasets } from '../../src/main/store/repos/datasets'
import { DEFAULT_GOLD_RULE } from '../../src/shared/goldRule'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('migration 0120: gold rules', () => {
  it('keeps the gold of an existing workspace, which then takes rules with an append-only history', () => {
    const file = `${tmp()}/w.factlab`
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 120) })
    loadDemoIfEmpty(new Workspace(file, old))
    const id = listDatasets(old)[0]!.id
    const before = [...resolveGold(old, id)].sort()
    old.close()

    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBe(LATEST_VERSION)
    // No rule stated: the default, and the same gold as before the upgrade.
    expect(goldRuleOf(ws.db, id)).toEqual(DEFAULT_GOLD_RULE)
    expect([...resolveGold(ws.db, id)].sort()).toEqual(before)
    const change = setGoldRule(ws.db, id, { kind: 'majority', tie: 'unsupported', minLabels: 2 }, 'lead')
    expect(change).not.toBeNull()
    expect(goldRuleHistory(ws.db, id)).toHaveLength(1)
    expect(() => ws.db.prepare('UPDATE gold_rule_history SET changed_by = NULL').run()).toThrow(/append-only/)
    expect(() => ws.db.prepare('DELETE FROM gold_rule_changes').run()).toThrow(/append-only/)
    ws.close()
  })
})
