/**
 * Child process of the crash test: opens the workspace and imports the given file until the
 * parent kills it with SIGKILL.
 */
import { Workspace } from '../../src/main/app/workspace'
import { importFile } from '../../src/main/import'
import { GRADED } from './graded'

const [workspace, file] = process.argv.slice(2)
const ws = Workspace.open(workspace!)
await importFile(ws, { file: file!, mapping: GRADED, datasetName: 'crashed' })
ws.close()
