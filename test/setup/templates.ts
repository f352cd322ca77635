import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import type { Templates } from '../helpers/templates'

/**
 * vitest's globalSetup: the workspaces tests start from, made once per run. A new workspace costs
 * every migration, each its own transaction and so its own fsync (about half a second on this
 * disk, whatever the load), and the demo an import on top; made in each test file, as before,
 * that was paid again by every file, since each runs in a process of its own. The migrations and
 * the demo themselves are tested in test/store and test/demo on files they build step by step.
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'factlab-templates-'))
  const empty = join(dir, 'empty.factlab')
  Workspace.open(empty).close()
  const demo = join(dir, 'demo.factlab')
  copyFileSync(empty, demo)
  const ws = Workspace.open(demo)
  loadDemoIfEmpty(ws)
  ws.close()
  const templates: Templates = { empty, demo }
  project.provide('workspaceTemplates', templates)
  return () => rmSync(dir, { recursive: true, force: true })
}
