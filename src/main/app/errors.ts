import type { RpcError } from '../../shared/contract'

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
