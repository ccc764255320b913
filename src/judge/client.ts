// The judge client: one OpenAI-compatible call with timeouts, retries and backoff, and its token log line.

import type { Tally } from "../base/counters.ts"
import { describeError } from "../base/text.ts"
import { asRecord, isRecord } from "../base/unknown.ts"
import { scrubError } from "../capture/redact/scrub.ts"
import type { JudgeSettings } from "../config/config.ts"
import type { Deps, TokenLogLine } from "../config/effects.ts"
import type { RawVerdict } from "../state/shapes.ts"
import { buildJudgeBody, type JudgeRequest } from "./prompt.ts"
import { parseVerdict } from "./verdict.ts"

export const JUDGE_MAX_TOKENS = 256

/** One retry with more room: reasoning models sometimes spend the first budget before the JSON. */
export const JUDGE_RETRY_MAX_TOKENS = 512

/**
 * Statuses worth another attempt: 408 (the server timed the request out), 429 (rate limit) and every 5xx
 * (the provider is overloaded or failing). 409 and 425, which ofetch also retries, are left out: a stateless
 * POST has nothing to conflict with, and `fetch` never sends TLS early data. Timeouts and network errors are
 * retried too; anything else (401, 400, 404) is a configuration problem that waiting will not heal.
 */
export const isRetryableStatus = (status: number) =>
  status === 408 || status === 429 || (status >= 500 && status <= 599)

const BACKOFF_BASE_MS = 500

const BACKOFF_CAP_MS = 8_000

/** A longer Retry-After is cut to this: the user has likely moved on by then, and each wait holds a worker. */
const RETRY_AFTER_CAP_MS = 30_000

/** A judge answer is a small JSON object; anything far larger is a misconfigured endpoint. */
const MAX_JUDGE_BODY_BYTES = 1_000_000

/** How much of a refused request's body is read: enough for an error message, never a whole page. */
const ERROR_BODY_BYTES = 4_096

/** What the plugin learned about a judge endpoint while talking to it. */
export interface JudgeCompat {
  omitReasoning: boolean
}

export class JudgeError extends Error {
  readonly status: number | undefined
  readonly retryable: boolean
  /** The server's Retry-After header, when it sent one. */
  readonly retryAfter: string | null
  /** How the token log names the attempt: `http_429`, `timeout`, `network_error`, `bad_body`. */
  readonly outcome: string
  /** A strict endpoint refused the `reasoning` field: the same request without it may well succeed. */
  readonly rejectsReasoning: boolean
  constructor(
    message: string,
    details: {
      status?: number
      retryable: boolean
      retryAfter?: string | null
      outcome: string
      rejectsReasoning?: boolean
    },
  ) {
    super(message)
    this.name = "JudgeError"
    this.status = details.status
    this.retryable = details.retryable
    this.retryAfter = details.retryAfter ?? null
    this.outcome = details.outcome
    this.rejectsReasoning = details.rejectsReasoning ?? false
  }
}

/** Exponential backoff with equal jitter (half fixed, half random); a server's Retry-After wins when sane. */
export function retryDelay(attempt: number, retryAfter: string | null, now: number, random: () => number): number {
  if (retryAfter) {
    const seconds = Number(retryAfter)
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - now
    if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, RETRY_AFTER_CAP_MS)
  }
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

export interface JudgeAnswer {
  status: number
  content: string
  usage: Record<string, unknown> | undefined
}

/** Reads a body up to `limit` bytes; a chunked body with no length header cannot make it read more. */
async function readAtMost(response: Response, limit: number): Promise<string | undefined> {
  if (!response.body) return ""
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString("utf8")
}

/** An answer that is not a chat completion (HTML, no choices, too large) will not heal by asking again. */
const badBody = (message: string, status: number) =>
  new JudgeError(message, { status, retryable: false, outcome: "bad_body" })

async function readJudgeAnswer(response: Response): Promise<JudgeAnswer> {
  const declared = Number(response.headers.get("content-length"))
  if (declared > MAX_JUDGE_BODY_BYTES) {
    await response.body?.cancel().catch(() => {})
    throw badBody(`judge answer too large (${declared} bytes)`, response.status)
  }
  const raw = await readAtMost(response, MAX_JUDGE_BODY_BYTES)
  if (raw === undefined) throw badBody("judge answer too large", response.status)
  let payload: unknown
  try {
    payload = JSON.parse(raw)
  } catch {
    throw badBody("judge answered something other than JSON", response.status)
  }
  const body = asRecord(payload)
  const choice = Array.isArray(body.choices) ? asRecord(body.choices[0]) : undefined
  if (!choice) throw badBody("judge answer has no choices", response.status)
  const content = asRecord(choice.message).content
  return {
    status: response.status,
    content: typeof content === "string" ? content : "",
    usage: isRecord(body.usage) ? body.usage : undefined,
  }
}

/** A status other than 2xx. A 400 that names `reasoning` comes from a strict endpoint that rejects the field. */
async function refusal(response: Response): Promise<JudgeError> {
  const status = response.status
  const text = status === 400 ? await readAtMost(response, ERROR_BODY_BYTES).catch(() => "") : undefined
  if (text === undefined) await response.body?.cancel().catch(() => {})
  return new JudgeError(`judge answered HTTP ${status}`, {
    status,
    retryable: isRetryableStatus(status),
    retryAfter: response.headers.get("retry-after"),
    outcome: `http_${status}`,
    rejectsReasoning: status === 400 && /reasoning/i.test(text ?? ""),
  })
}

/** Refused, reset, DNS, or the per-attempt timeout, which also covers a judge stalling mid-answer. */
function unreachable(error: unknown, judge: JudgeSettings): JudgeError {
  const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
  const detail = timedOut ? `timed out after ${judge.timeoutMs} ms` : `unreachable (${describeError(error)})`
  return new JudgeError(scrubError(`judge ${detail}`, judge.apiKey), {
    retryable: true,
    outcome: timedOut ? "timeout" : "network_error",
  })
}

/** One POST to the judge: its answer, or a JudgeError that says whether another attempt may help. */
async function attemptJudge(judge: JudgeSettings, body: string, fetch: Deps["fetch"]): Promise<JudgeAnswer> {
  const headers: Record<string, string> = { "content-type": "application/json" }
  if (judge.apiKey) headers.authorization = `Bearer ${judge.apiKey}`
  try {
    const response = await fetch(`${judge.baseURL}/chat/completions`, {
      method: "POST",
      headers,
      body,
      signal: AbortSignal.timeout(judge.timeoutMs),
    })
    if (response.ok) return await readJudgeAnswer(response)
    throw await refusal(response)
  } catch (error) {
    throw error instanceof JudgeError ? error : unreachable(error, judge)
  }
}

function tokenFields(usage: Record<string, unknown> | undefined) {
  if (!usage) return {}
  const number = (value: unknown) => (typeof value === "number" ? value : undefined)
  const details = asRecord(usage.prompt_tokens_details)
  return {
    prompt_tokens: number(usage.prompt_tokens),
    completion_tokens: number(usage.completion_tokens),
    total_tokens: number(usage.total_tokens),
    cached_tokens: number(details.cached_tokens) ?? number(usage.cache_read_input_tokens),
  }
}

/** One try at a judge answer on some route: the answer, or a JudgeError that says whether to try again. */
export type JudgeAttempt = (request: JudgeRequest) => Promise<JudgeAnswer>

/**
 * One judge request with retries, on any route: timeouts, 408, 429, 5xx and network failures are tried again
 * with backoff, anything else fails at once. An endpoint that rejects `reasoning` gets it dropped, once, for
 * good. Every attempt writes one token-log line.
 */
export async function retryJudge(
  attempt: JudgeAttempt,
  judge: Pick<JudgeSettings, "maxAttempts">,
  request: JudgeRequest,
  deps: Pick<Deps, "now" | "sleep" | "random">,
  count: Tally,
  writeTokenLog: (line: TokenLogLine) => void,
  compat: JudgeCompat,
): Promise<string> {
  for (let tries = 1; ; tries++) {
    const started = deps.now()
    const logAttempt = (outcome: string, status?: number, usage?: Record<string, unknown>) =>
      writeTokenLog({
        time: new Date(started).toISOString(),
        model: request.model,
        claims: request.batch?.length ?? 1,
        attempt: tries,
        outcome,
        ...(status === undefined ? {} : { status }),
        latency_ms: deps.now() - started,
        ...tokenFields(usage),
      })
    count("requests")
    try {
      const answer = await attempt(request)
      logAttempt("ok", answer.status, answer.usage)
      return answer.content
    } catch (thrown) {
      const error =
        thrown instanceof JudgeError
          ? thrown
          : new JudgeError(`judge failed (${describeError(thrown)})`, { retryable: false, outcome: "error" })
      logAttempt(error.outcome, error.status)
      if (error.rejectsReasoning && !compat.omitReasoning) {
        compat.omitReasoning = true
      } else if (!error.retryable || tries >= judge.maxAttempts) {
        throw error
      } else {
        await deps.sleep(retryDelay(tries, error.retryAfter, deps.now(), deps.random))
      }
      count("retries")
    }
  }
}

/** One attempt on the direct route: the request body as the endpoint takes it, posted with `fetch`. */
export function directAttempt(judge: JudgeSettings, compat: JudgeCompat, fetch: Deps["fetch"]): JudgeAttempt {
  return (request) => attemptJudge(judge, buildJudgeBody(request, !compat.omitReasoning), fetch)
}

/**
 * One claim's verdict. An answer without a readable verdict is asked once more with a larger budget; if
 * that fails too the claim counts as unverifiable, marked so it is never cached.
 */
export async function judgeClaim(
  post: (request: JudgeRequest) => Promise<string>,
  request: Omit<JudgeRequest, "maxTokens">,
  sourceIds: ReadonlySet<string>,
  count: Tally,
): Promise<RawVerdict & { via: "judge" | "parse-fallback" }> {
  for (const maxTokens of [JUDGE_MAX_TOKENS, JUDGE_RETRY_MAX_TOKENS]) {
    const verdict = parseVerdict(await post({ ...request, maxTokens }), sourceIds)
    if (verdict) return { ...verdict, via: "judge" }
  }
  count("parseErrors")
  return { verdict: "unverifiable", source: undefined, quote: undefined, reason: undefined, via: "parse-fallback" }
}
