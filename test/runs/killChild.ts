/**
 * Child process of the kill test: opens the workspace and drives the given run as the CLI would,
 * until the parent kills it with SIGKILL. With a third argument N it instead exits on its own
 * (process.exit, as a finished command or a closed app does) once N candidates are judged.
 */
import { Workspace } from '../../src/main/app/workspace'
import { engineFor } from './helpers'

const [file, runId, exitAfter] = process.argv.slice(2)
const ws = Workspace.open(file!)
await engineFor(ws, {
  driver: 'cli',
  onProgress: (p) => {
    if (exitAfter !== undefined && p.done >= Number(exitAfter)) process.exit(0)
  },
}).start(Number(runId))
ws.close()
