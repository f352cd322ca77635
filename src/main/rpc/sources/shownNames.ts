import type { FileSource } from '../../../shared/contract/datasets'
import { countOf } from '../../../shared/plural'
import { shownName } from '../../annotate/upload'
import { ServiceError } from '../../app/errors'

/**
 * The names a person knows an import's sources by, in order, for its messages and records: a
 * path as given, else the path the person picked in the app (one per source, `pickedPaths`),
 * else an upload's file name. Taken before the import starts, since an upload is consumed (and
 * forgotten) once the import takes it.
 */
export function shownNames(
  sources: readonly FileSource[],
  pickedPaths: readonly string[] | undefined,
): string[] {
  if (pickedPaths && pickedPaths.length !== sources.length)
    throw new ServiceError(
      'bad_input',
      `pickedPaths names ${countOf(pickedPaths.length, 'file')} for ${countOf(sources.length, 'source')}: give one path per source, in order`,
    )
  return sources.map((s, i) => ('path' in s ? s.path : (pickedPaths?.[i] ?? shownName(s))))
}
