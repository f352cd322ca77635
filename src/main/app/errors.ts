import type { RpcError } from '../../shared/contract'
import { storeTroubleMessage } from '../../shared/storeTrouble'
import { storeTrouble } from '../store/trouble'

/**
 * A service refusal with a code the UI can act on; any other exception becomes `failed`. It lives
 * with the services (not the transport) so that a service never has to import `rpc/` to refuse.
 */
export class ServiceError extends Error {
  constructor(
    readonly code: RpcError['code'],
    message: string,
  ) {
    super(message)
  }
}

/**
 * The `unavailable` error for passing store trouble (a lock another process holds, a full disk),
 * so a caller tries again instead of taking it as a refusal; null for any other error.
 */
export function unavailableError(error: unknown): ServiceError | null {
  const kind = storeTrouble(error)
  return kind === null ? null : new ServiceError('unavailable', storeTroubleMessage(kind))
}
