import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, sep } from 'node:path'

/**
 * Browser mode cannot hand main a file path, so the wizard sends the file's bytes. They land in
 * a private temporary folder under the original name (the extension tells the importer the
 * format) and the folder is removed whatever the importer does. Error messages name the file
 * as the person knows it, not the temporary path.
 */
export async function withUploadedFile<T>(
  fileName: string,
  contentBase64: string,
  use: (file: string) => T | Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'factlab-upload-'))
  try {
    // basename() again: the contract already refuses paths, this keeps the write inside `dir`.
    const file = join(dir, basename(fileName))
    writeFileSync(file, Buffer.from(contentBase64, 'base64'))
    return await use(file)
  } catch (error) {
    if (error instanceof Error) error.message = error.message.split(`${dir}${sep}`).join('')
    throw error
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
