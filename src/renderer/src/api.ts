import { z } from 'zod'
import type {
  CallInput,
  CallName,
  CallOutput,
  EventName,
  EventPayload,
  FactlabBridge,
  RpcError,
  RpcResult,
} from '../../shared/contract'
// The paths alone, not the contract's index: that evaluates every call's schemas, which the
// first screen never uses (main checks what crosses), so they load with the views that do.
import {
  HTTP_CALL_PREFIX,
  HTTP_DOWNLOAD_PREFIX,
  HTTP_EVENTS_PATH,
  HTTP_UPLOAD_PATH,
  TOKEN_HEADER,
  TOKEN_QUERY,
} from '../../shared/contract/bridge'

declare global {
  interface Window {
    factlab?: FactlabBridge
  }
}

/** A refusal from main, with the contract's error code; views show `message` to the person. */
export class ApiError extends Error {
  constructor(
    readonly code: RpcError['code'],
    message: string,
  ) {
    super(message)
  }
}

const TOKEN_KEY = 'factlab.token'

/**
 * Browser mode: the token arrives once in the URL, then lives in sessionStorage only. Kept in
 * memory after the first read: sessionStorage is a synchronous trip to the browser process, and
 * the first screen sends half a dozen calls at once.
 */
let knownToken: string | null = null
function browserToken(): string {
  if (knownToken !== null) return knownToken
  knownToken = readToken()
  return knownToken
}

function readToken(): string {
  const url = new URL(window.location.href)
  const fromUrl = url.searchParams.get(TOKEN_QUERY)
  if (fromUrl) {
    // The first touch of sessionStorage waits for the browser process; the first screen's calls
    // need only the token in memory. Until it is kept, the URL still carries it for a reload;
    // a page left for another address before it was ever idle keeps it on the way out.
    let kept = false
    const keep = (): void => {
      if (kept) return
      kept = true
      keepToken(fromUrl)
    }
    whenIdle(keep)
    window.addEventListener('pagehide', keep, { once: true })
    return fromUrl
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? ''
}

function keepToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token)
  const url = new URL(window.location.href)
  url.searchParams.delete(TOKEN_QUERY)
  window.history.replaceState(null, '', url.toString())
}

/** After the page's current work, within a second at most. */
function whenIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 1000 })
  else setTimeout(fn, 0)
}

async function httpCall(name: string, input: unknown): Promise<RpcResult<unknown>> {
  const response = await fetch(`${HTTP_CALL_PREFIX}${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [TOKEN_HEADER]: browserToken() },
    body: JSON.stringify(input ?? {}),
  })
  if (response.status === 401 || response.status === 403) {
    return {
      ok: false,
      error: {
        code: 'failed',
        message: 'This page lost its access token: open the URL `npm run serve` printed.',
      },
    }
  }
  return (await response.json()) as RpcResult<unknown>
}

// Built at the first upload, not when the first screen loads this module.
let uploadAnswer: ReturnType<typeof makeUploadAnswer> | null = null
function makeUploadAnswer() {
  return z.union([
    z.object({ uploadId: z.string() }),
    z.object({ ok: z.literal(false), error: z.object({ message: z.string() }) }),
  ])
}

/**
 * Browser mode: streams a file (or the part of it given) to the server, which keeps it for the
 * next call; the browser sends the Blob itself, so nothing is read into memory here.
 */
export async function uploadFile(body: Blob, name: string): Promise<string> {
  const response = await fetch(`${HTTP_UPLOAD_PATH}?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', [TOKEN_HEADER]: browserToken() },
    body,
  })
  if (response.status === 401 || response.status === 403)
    throw new ApiError('failed', 'This page lost its access token: open the URL `npm run serve` printed.')
  uploadAnswer ??= makeUploadAnswer()
  const parsed = uploadAnswer.safeParse(await response.json().catch(() => null))
  if (!parsed.success)
    throw new ApiError('failed', `The server did not accept ${name} (HTTP ${response.status}).`)
  if ('uploadId' in parsed.data) return parsed.data.uploadId
  throw new ApiError('failed', parsed.data.error.message)
}

/** True in browser mode: files the server writes are on its disk, not necessarily this one's. */
export function isBrowserMode(): boolean {
  return window.factlab === undefined
}

/**
 * Browser mode: fetches a download the server prepared (exports.download) and hands it to the
 * browser's own download, under the name the server chose.
 */
export async function downloadPrepared(downloadId: string, fileName: string): Promise<void> {
  const response = await fetch(`${HTTP_DOWNLOAD_PREFIX}${encodeURIComponent(downloadId)}`, {
    headers: { [TOKEN_HEADER]: browserToken() },
  })
  if (!response.ok) throw new ApiError('failed', (await response.text()) || `HTTP ${response.status}`)
  const url = URL.createObjectURL(await response.blob())
  const a = document.createElement('a')
  a.href = url
  a.download = fileName
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

const succeeded = new Set<() => void>()

/**
 * Hears every call that succeeds: the workspace is answering. The save queue listens, so labels
 * waiting after a failed send go as soon as the server is back.
 */
export function onCallSucceeded(listener: () => void): () => void {
  succeeded.add(listener)
  return () => succeeded.delete(listener)
}

/** Calls main, through IPC in the desktop app or HTTP in browser mode; throws ApiError on refusal. */
export async function api<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>> {
  const bridge = window.factlab
  const fn = bridge?.calls[name]
  const result = fn ? await fn(input) : await httpCall(name, input)
  if (!result.ok) throw new ApiError(result.error.code, result.error.message)
  for (const listener of succeeded) listener()
  return result.value as CallOutput<K>
}

type Handler = (name: EventName, payload: unknown) => void
const handlers = new Set<Handler>()
let source: EventSource | null = null
let unsubscribeBridge: (() => void) | null = null

function ensureEventStream(): void {
  if (source || unsubscribeBridge) return
  const dispatch: Handler = (name, payload) => {
    for (const h of handlers) h(name, payload)
  }
  if (window.factlab) {
    unsubscribeBridge = window.factlab.onEvent(dispatch)
    return
  }
  source = new EventSource(`${HTTP_EVENTS_PATH}?${TOKEN_QUERY}=${encodeURIComponent(browserToken())}`)
  source.onmessage = (e) => {
    const msg = JSON.parse(e.data) as { name: EventName; payload: unknown }
    dispatch(msg.name, msg.payload)
  }
}

/** Subscribes to one event from main; returns the unsubscribe function. */
export function onEvent<K extends EventName>(name: K, fn: (payload: EventPayload<K>) => void): () => void {
  ensureEventStream()
  const h: Handler = (n, p) => {
    if (n === name) fn(p as EventPayload<K>)
  }
  handlers.add(h)
  return () => handlers.delete(h)
}
