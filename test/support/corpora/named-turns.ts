/**
 * The labelled corpus of the named-file section of the noisy-judge benchmark: agent replies that make claims
 * about project files the agent never read in its session, true and false. Each project file is code written
 * for this corpus, modelled on the public API of a named open-source package (its option names and
 * defaults as its README documents them); no line is copied from it. The benchmark writes the files into a
 * scratch work tree, so the plugin reads them the way it reads a user's project.
 *
 * Contents: 6 turns, 5 files (modelled on sindresorhus/p-retry, developit/mitt, sindresorhus/ky, vercel/ms and
 * lodash's debounce), 26 claims, 13 of them false. Three turns read an unrelated file first; three make no tool
 * call at all.
 */

export interface NamedClaim {
  /** The sentence as the agent wrote it, inline code in backticks. */
  raw: string
  truth: "faithful" | "unfaithful"
  /** Words of the file that back a true claim or contradict a false one, copied exactly from one line. */
  evidence: string
}

export interface NamedTurn {
  name: string
  /** The public package whose documented API the file is modelled on. */
  modelledOn: string
  question: string
  /** Whether the agent read README.md first (evidence of its own), or made no tool call at all. */
  readsReadme: boolean
  claims: NamedClaim[]
}

export const README = `# shop-client

Client helpers for the shop API: requests with retries, events, durations, and input debouncing.
Run \`npm test\` before a release.
`

/** The project's files, by path. */
export const PROJECT_FILES: Readonly<Record<string, string>> = {
  "README.md": README,
  ".gitignore": "dist/\nnode_modules/\n",
  "src/retry.ts": `// Modelled on the documented options of sindresorhus/p-retry; written for this corpus.

/** Thrown by the input to stop retrying at once. */
export class AbortError extends Error {
  constructor(message: string) {
    super(message)
    this.name = "AbortError"
  }
}

export interface RetryOptions {
  /** How many times to retry after the first attempt. */
  retries?: number
  /** The exponential factor between waits. */
  factor?: number
  /** The first wait, in milliseconds. */
  minTimeout?: number
  /** The longest wait, in milliseconds. */
  maxTimeout?: number
  /** Multiplies each wait by a random factor between 1 and 2. */
  randomize?: boolean
  onFailedAttempt?: (error: Error, attempt: number) => void | Promise<void>
}

const DEFAULTS = { retries: 10, factor: 2, minTimeout: 1000, maxTimeout: Number.POSITIVE_INFINITY, randomize: false }

type Settings = typeof DEFAULTS & RetryOptions

/** The wait after a failed attempt: minTimeout times factor to the power of the attempts so far, capped. */
export function waitFor(attempt: number, settings: Settings): number {
  const random = settings.randomize ? Math.random() + 1 : 1
  return Math.min(random * settings.minTimeout * settings.factor ** (attempt - 1), settings.maxTimeout)
}

export async function pRetry<T>(input: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const settings: Settings = { ...DEFAULTS, ...options }
  for (let attempt = 1; ; attempt++) {
    try {
      return await input(attempt)
    } catch (error) {
      if (error instanceof AbortError) throw error
      await settings.onFailedAttempt?.(error as Error, attempt)
      if (attempt > settings.retries) throw error
      await new Promise((resolve) => setTimeout(resolve, waitFor(attempt, settings)))
    }
  }
}
`,
  "src/emitter.ts": `// Modelled on the documented API of developit/mitt; written for this corpus.

export type Handler = (event: unknown) => void
export type WildcardHandler = (type: string, event: unknown) => void

export function createEmitter() {
  const all = new Map<string, Array<Handler | WildcardHandler>>()
  return {
    all,
    on(type: string, handler: Handler | WildcardHandler) {
      const handlers = all.get(type)
      if (handlers) handlers.push(handler)
      else all.set(type, [handler])
    },
    /** Without a handler, every handler of the type is removed. */
    off(type: string, handler?: Handler | WildcardHandler) {
      const handlers = all.get(type)
      if (!handlers) return
      if (handler) handlers.splice(handlers.indexOf(handler) >>> 0, 1)
      else all.set(type, [])
    },
    /** Handlers of the type run first, then the "*" handlers, which also get the type. */
    emit(type: string, event?: unknown) {
      for (const handler of (all.get(type) ?? []).slice()) (handler as Handler)(event)
      for (const handler of (all.get("*") ?? []).slice()) (handler as WildcardHandler)(type, event)
    },
  }
}
`,
  "src/http.ts": `// Modelled on the documented defaults of sindresorhus/ky; written for this corpus.

export const RETRY_METHODS = ["get", "put", "head", "delete", "options", "trace"]
export const RETRY_STATUS_CODES = [408, 413, 429, 500, 502, 503, 504]

export const DEFAULT_OPTIONS = {
  timeout: 10_000,
  retry: { limit: 2, methods: RETRY_METHODS, statusCodes: RETRY_STATUS_CODES },
  throwHttpErrors: true,
}

export class TimeoutError extends Error {}

export class HTTPError extends Error {
  constructor(readonly response: Response) {
    super(\`Request failed with status code \${response.status}\`)
  }
}

export async function request(url: string, options: Partial<typeof DEFAULT_OPTIONS> & RequestInit = {}) {
  const settings = { ...DEFAULT_OPTIONS, ...options }
  const method = (options.method ?? "get").toLowerCase()
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url, { ...options, signal: AbortSignal.timeout(settings.timeout) })
    const retry = settings.retry
    const again = retry.methods.includes(method) && retry.statusCodes.includes(response.status)
    if (again && attempt < retry.limit) continue
    if (!response.ok && settings.throwHttpErrors) throw new HTTPError(response)
    return response
  }
}
`,
  "src/duration.ts": `// Modelled on the documented behaviour of vercel/ms; written for this corpus.

const s = 1000
const m = s * 60
const h = m * 60
const d = h * 24
const w = d * 7
const y = d * 365.25

const UNITS: Record<string, number> = { ms: 1, s, m, h, d, w, y }

/** "2d", "1.5h", "90 s": the milliseconds; returns NaN for text it cannot read. */
export function parse(text: string): number {
  const match = /^(-?\\d*\\.?\\d+) *(ms|s|m|h|d|w|y)?$/i.exec(text.trim())
  if (!match) return Number.NaN
  return Number(match[1]) * (UNITS[(match[2] ?? "ms").toLowerCase()] ?? 1)
}

/** The short form ("2d") unless long is set ("2 days"). */
export function format(ms: number, long = false): string {
  const [unit, size] = ms >= d ? ["day", d] : ms >= h ? ["hour", h] : ms >= m ? ["minute", m] : ["second", s]
  const count = Math.round(ms / size)
  return long ? \`\${count} \${unit}\${count === 1 ? "" : "s"}\` : \`\${count}\${unit[0]}\`
}
`,
  "src/debounce.ts": `// Modelled on the documented options of lodash's debounce; written for this corpus.

export interface DebounceOptions {
  leading?: boolean
  trailing?: boolean
  maxWait?: number
}

export function debounce<A extends unknown[]>(
  fn: (...args: A) => void,
  wait = 0,
  { leading = false, trailing = true, maxWait }: DebounceOptions = {},
) {
  let timer: ReturnType<typeof setTimeout> | undefined
  let pending: A | undefined
  let first = 0
  const run = () => {
    timer = undefined
    if (trailing && pending) fn(...pending)
    pending = undefined
    first = 0
  }
  const debounced = (...args: A) => {
    const now = Date.now()
    if (!timer && leading) fn(...args)
    else pending = args
    if (!first) first = now
    clearTimeout(timer)
    const left = maxWait === undefined ? wait : Math.min(wait, maxWait - (now - first))
    timer = setTimeout(run, Math.max(0, left))
  }
  const cancel = () => {
    clearTimeout(timer)
    timer = undefined
    pending = undefined
  }
  const flush = () => {
    clearTimeout(timer)
    run()
  }
  return Object.assign(debounced, { cancel, flush })
}
`,
  "dist/retry.js": "// built output, ignored by git\n",
}

export const NAMED_TURNS: NamedTurn[] = [
  {
    name: "retry defaults",
    modelledOn: "sindresorhus/p-retry",
    question: "How does our retry helper behave by default?",
    readsReadme: true,
    claims: [
      {
        raw: "`pRetry()` in `src/retry.ts` retries up to 10 times by default.",
        truth: "faithful",
        evidence: "const DEFAULTS = { retries: 10, factor: 2",
      },
      {
        raw: "The first wait after a failure is half a second.",
        truth: "unfaithful",
        evidence: "factor: 2, minTimeout: 1000, maxTimeout",
      },
      {
        raw: "Each wait doubles the one before it, since the factor defaults to 2.",
        truth: "faithful",
        evidence: "const DEFAULTS = { retries: 10, factor: 2",
      },
      {
        raw: "Randomised waits are switched on by default.",
        truth: "unfaithful",
        evidence: "maxTimeout: Number.POSITIVE_INFINITY, randomize: false }",
      },
      {
        raw: "Throwing an `AbortError` stops the retries at once.",
        truth: "faithful",
        evidence: "if (error instanceof AbortError) throw error",
      },
    ],
  },
  {
    name: "retry gives up",
    modelledOn: "sindresorhus/p-retry",
    question: "When does pRetry give up?",
    readsReadme: false,
    claims: [
      {
        raw: "By default `pRetry()` in `src/retry.ts` gives up after the third failed attempt.",
        truth: "unfaithful",
        evidence: "const DEFAULTS = { retries: 10, factor: 2",
      },
      {
        raw: "The waits between attempts are not capped, because `maxTimeout` defaults to infinity.",
        truth: "faithful",
        evidence: "maxTimeout: Number.POSITIVE_INFINITY",
      },
      {
        raw: "The `onFailedAttempt` callback is only called after the last attempt has failed.",
        truth: "unfaithful",
        evidence: "await settings.onFailedAttempt?.(error as Error, attempt)",
      },
    ],
  },
  {
    name: "event emitter",
    modelledOn: "developit/mitt",
    question: "How do the wildcard listeners of our emitter work?",
    readsReadme: true,
    claims: [
      {
        raw: "Calling `off()` in `src/emitter.ts` without a handler removes every handler of that type.",
        truth: "faithful",
        evidence: "Without a handler, every handler of the type is removed.",
      },
      {
        raw: "The wildcard handlers run before the handlers of the event's own type.",
        truth: "unfaithful",
        evidence: 'Handlers of the type run first, then the "*" handlers',
      },
      {
        raw: "Wildcard handlers receive the event type as their first argument.",
        truth: "faithful",
        evidence: "(handler as WildcardHandler)(type, event)",
      },
      {
        raw: "Registering the same handler twice with `on()` is ignored the second time.",
        truth: "unfaithful",
        evidence: "if (handlers) handlers.push(handler)",
      },
    ],
  },
  {
    name: "http defaults",
    modelledOn: "sindresorhus/ky",
    question: "What are the defaults of our request helper?",
    readsReadme: false,
    claims: [
      {
        raw: "`request()` in `src/http.ts` times out after 30 seconds by default.",
        truth: "unfaithful",
        evidence: "timeout: 10_000,",
      },
      {
        raw: "A failed request is retried at most twice.",
        truth: "faithful",
        evidence: "retry: { limit: 2, methods: RETRY_METHODS",
      },
      {
        raw: "POST requests are retried as well.",
        truth: "unfaithful",
        evidence: 'export const RETRY_METHODS = ["get", "put", "head", "delete", "options", "trace"]',
      },
      {
        raw: "The status codes retried are listed in `src/http.ts:4`, and they include 429.",
        truth: "faithful",
        evidence: "RETRY_STATUS_CODES = [408, 413, 429, 500",
      },
      {
        raw: "A response with an error status resolves normally unless `throwHttpErrors` is set.",
        truth: "unfaithful",
        evidence: "throwHttpErrors: true,",
      },
    ],
  },
  {
    name: "durations",
    modelledOn: "vercel/ms",
    question: "Can our duration parser read years?",
    readsReadme: true,
    claims: [
      {
        raw: "`parse()` in `src/duration.ts` returns NaN for text it cannot read.",
        truth: "faithful",
        evidence: "returns NaN for text it cannot read",
      },
      {
        raw: "It counts a year as exactly 365 days.",
        truth: "unfaithful",
        evidence: "const y = d * 365.25",
      },
      {
        raw: "A week is read as seven days.",
        truth: "faithful",
        evidence: "const w = d * 7",
      },
      {
        raw: "`format()` writes the long form, such as 2 days, by default.",
        truth: "unfaithful",
        evidence: "export function format(ms: number, long = false): string {",
      },
    ],
  },
  {
    name: "debounce",
    modelledOn: "lodash debounce",
    question: "Does our debounce fire on the first call?",
    readsReadme: false,
    claims: [
      {
        raw: "`debounce()` in `src/debounce.ts` calls the function on the leading edge by default.",
        truth: "unfaithful",
        evidence: "{ leading = false, trailing = true, maxWait }",
      },
      {
        raw: "It calls the function on the trailing edge unless told otherwise.",
        truth: "faithful",
        evidence: "{ leading = false, trailing = true, maxWait }",
      },
      {
        raw: "The debounced function comes with `cancel` and `flush` methods.",
        truth: "faithful",
        evidence: "return Object.assign(debounced, { cancel, flush })",
      },
      {
        raw: "Its default wait is 100 milliseconds.",
        truth: "unfaithful",
        evidence: "wait = 0,",
      },
      {
        raw: "A `maxWait` option bounds how long a call can be held back.",
        truth: "faithful",
        evidence: "Math.min(wait, maxWait - (now - first))",
      },
    ],
  },
]
