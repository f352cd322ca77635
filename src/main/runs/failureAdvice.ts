/*
 * What a person can do about a run whose every call failed, by the class of its first failure
 * (verdicts/failures.ts errorClass). A run's provider, model and base URL are frozen into it, so
 * resuming sends the same requests to the same place: it helps only once that place answers, and
 * never when the requests themselves were refused. Pure.
 */

export interface FailedRunFacts {
  /** errorClass of the first failure: connection, timeout, rate limit, authentication, … */
  failure: string
  provider: string
  baseUrl: string | null
  timeoutMs: number
}

const where = (f: FailedRunFacts) => (f.baseUrl ? f.baseUrl : `the ${f.provider} API`)

/** One or two sentences to add to the run's failure message, or null when there is nothing useful to say. */
export function failureAdvice(f: FailedRunFacts): string | null {
  switch (f.failure) {
    case 'connection':
      return `Nothing answered at ${where(f)}: check that the server is running and that the address is right. Resuming asks the same address again, so it helps only once the server answers; for another address, start a new run.`
    case 'timeout':
      return `${where(f)} did not answer within ${Math.round(f.timeoutMs / 1000)} s: check that the server is running and not overloaded, then resume, or start a new run with a longer timeout.`
    case 'server error':
      return `${where(f)} kept answering with server errors: check the server (its log says why), then resume once it recovers.`
    case 'rate limit':
      return 'The provider kept refusing for its rate limit: resume later, or start a new run with less concurrency or a requests-per-minute limit.'
    case 'authentication':
      return `${where(f)} refused the API key: set a valid key, then resume.`
    case 'request refused':
      return `${where(f)} refused the requests as sent: check the model name and the base URL. Resuming would send the same requests again, so start a new run with the right ones.`
    default:
      return null
  }
}

/**
 * How the CLI ends its line on a run that did not finish. Where the run's message already says
 * what to check first (failureAdvice), only the command follows; where resuming cannot help, none.
 */
export function resumeHint(runId: number, failure: string | null): string {
  const command = `judge resume ${runId}`
  switch (failure) {
    case 'request refused':
      return 'start a new run once the model name and base URL are right'
    case 'connection':
    case 'timeout':
    case 'server error':
    case 'rate limit':
    case 'authentication':
      return `to resume: ${command}`
    default:
      return `resume it with: ${command}`
  }
}
