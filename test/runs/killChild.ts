/**
 * Child process of the kill test: opens the workspace and runs the given run until the parent
 * kills it with SIGKILL.
 */
import { Workspace } from '../../src/main/app/workspace'
import { engineFor } from './helpers'

const [file, runId] = process.argv.slice(2)
const ws = Workspace.open(file!)
await engineFor(ws).start(Number(runId))
ws.close()
