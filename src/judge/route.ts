// The opencode route: judging through the user's own opencode providers in hidden judge sessions.
import { LIMITS, trimOldest } from "../base/bounds.ts"
import { clip, describeError } from "../base/text.ts"
import { asRecord, textOf } from "../base/unknown.ts"
import type { JudgeSettings } from "../config/config.ts"
import type { HostClient } from "../config/effects.ts"
import type { PartContext } from "../state/session.ts"
import { isRetryableStatus, JUDGE_RETRY_MAX_TOKENS, type JudgeAnswer, type JudgeAttempt, JudgeError } from "./client.ts"
import { normalizeModelId } from "./models.ts"
import { JUDGE_PROMPTS, type JudgeRequest, judgeUserContent } from "./prompt.ts"

/** The hidden agent the plugin registers for its judge sessions, and the title those sessions carry. */
export const JUDGE_AGENT = "ragfaith-judge"

export const JUDGE_SESSION_TITLE = "ragfaith judge"

/** After the user's provider refuses a judge call (401, 403, 400), the route rests this long. */
const ROUTE_PAUSE_MS = 10 * 60_000

/** A model the user can call through opencode, as `config.providers()` lists it. */
interface CallableModel {
  /** `providerID/modelID`, the way the route names judge models. */
  id: string
  providerID: string
  /** `config` for providers set up in opencode.json; `env` and `api` for ones opencode found by a key. */
  source: string
  /** Input plus output price per million tokens; unknown prices sort last. */
  price: number
  /**
   * Whether opencode's listing lets it answer a judge prompt: not deprecated, text out, and room for a verdict
   * in its output limit. A model that does not is asked for a second opinion only when no other is left.
   */
  answers: boolean
}

/** Whether a model as `config.providers()` lists it can give a verdict: read from its status, output and limit. */
function answersJudge(model: Record<string, unknown>): boolean {
  if (model.status === "deprecated") return false
  const output = asRecord(asRecord(model.capabilities).output)
  const modalities = asRecord(model.modalities).output
  if (output.text === false || (Array.isArray(modalities) && !modalities.includes("text"))) return false
  const limit = asRecord(model.limit).output
  return typeof limit !== "number" || limit === 0 || limit >= JUDGE_RETRY_MAX_TOKENS
}

/** The callable models in a `config.providers()` answer, read field by field: its options hold API keys. */
function readCallableModels(payload: unknown): CallableModel[] {
  const providers = asRecord(payload).providers
  if (!Array.isArray(providers)) return []
  return providers.flatMap((raw) => {
    const provider = asRecord(raw)
    const providerID = textOf(provider.id)
    if (!providerID) return []
    const source = textOf(provider.source) ?? "config"
    return Object.entries(asRecord(provider.models)).map(([modelID, model]) => {
      const cost = asRecord(asRecord(model).cost)
      const price =
        typeof cost.input === "number" && typeof cost.output === "number"
          ? cost.input + cost.output
          : Number.POSITIVE_INFINITY
      return { id: `${providerID}/${modelID}`, providerID, source, price, answers: answersJudge(asRecord(model)) }
    })
  })
}

/**
 * The judge models of the opencode route, in the order they are asked: the user's small model, then the
 * models of the provider the agent runs on (the boundary the user already chose), then the providers set up
 * in opencode.json, each group cheapest first; never the agent's own model. A provider opencode found only
 * through an environment key is used only when the user names one of its models.
 */
export function rankJudgeModels(
  models: readonly CallableModel[],
  smallModel: string | undefined,
  agentModel: string | undefined,
) {
  const agent = agentModel ? normalizeModelId(agentModel) : undefined
  const usable = models.filter((model) => normalizeModelId(model.id) !== agent)
  const cheapest = (list: CallableModel[]) => [...list].sort((a, b) => a.price - b.price).map((model) => model.id)
  const agentProvider = agentModel?.split("/")[0]
  return [
    ...new Set([
      ...usable.filter((model) => model.id === smallModel).map((model) => model.id),
      ...cheapest(usable.filter((model) => model.providerID === agentProvider)),
      ...cheapest(usable.filter((model) => model.source === "config")),
    ]),
  ]
}

/** The judge models on the route: the ones the user named, checked against what is callable, or the best two. */
function pickRouteModels(
  judge: JudgeSettings,
  models: readonly CallableModel[],
  seen: { smallModel?: string; model?: string },
  agentModel: string | undefined,
): { main: string; fallback: string } | { problem: string } {
  const callable = new Set(models.map((model) => model.id))
  const named = [judge.mainModel, judge.fallbackModel].find((model) => model && !callable.has(model))
  if (named)
    return { problem: `ragfaith: the judge model ${named} is not among your opencode models; nothing is judged` }
  const ranked = rankJudgeModels(models, seen.smallModel, agentModel ?? seen.model)
  const main = judge.mainModel || ranked[0]
  if (!main) {
    return {
      problem:
        'ragfaith: nothing is judged: the agent\'s model is your only one. Add "small_model" to opencode.json, or a judge key; see /ragfaith',
    }
  }
  // The second opinion goes to a model that can answer a judge prompt when there is one: a title model with
  // a tiny output limit answers nothing, and a silent second judge only costs time.
  const answering = new Set(models.filter((model) => model.answers).map((model) => model.id))
  const fallback =
    judge.fallbackModel ||
    ranked.find((model) => model !== main && answering.has(model)) ||
    ranked.find((model) => model !== main) ||
    main
  return { main, fallback }
}

/** What a judge session holds while it runs. */
interface JudgeCall {
  prompt: string
  maxTokens: number
  /** The provider asked to retry and the plugin cut the session short, before opencode's own retries. */
  retried: boolean
  timedOut: boolean
}

/** The judge's text out of a judge session's answer, or the JudgeError that says what went wrong. */
function readSessionAnswer(
  result: { data?: unknown; error?: unknown } | undefined,
  call: JudgeCall,
  timeoutMs: number,
) {
  if (!result || result.error !== undefined) {
    throw new JudgeError("opencode refused the judge call", { retryable: false, outcome: "route_error" })
  }
  const data = asRecord(result.data)
  const info = asRecord(data.info)
  const failure = asRecord(info.error)
  const details = asRecord(failure.data)
  // `opencode run` answers a prompt on another session with the prompt itself and never calls the model.
  if (info.role !== "assistant")
    throw new JudgeError("opencode ran no judge turn", { retryable: false, outcome: "route_no_turn" })
  if (call.timedOut || failure.name === "MessageAbortedError") {
    throw new JudgeError(`judge timed out after ${timeoutMs} ms`, { retryable: true, outcome: "timeout" })
  }
  if (failure.name !== undefined) {
    const status = typeof details.statusCode === "number" ? details.statusCode : undefined
    const detail = clip(textOf(details.message) ?? textOf(failure.name) ?? "error", 120)
    throw new JudgeError(status ? `judge answered HTTP ${status}` : `judge failed (${detail})`, {
      status,
      retryable: details.isRetryable === true || (status !== undefined && isRetryableStatus(status)),
      outcome: status ? `http_${status}` : "route_error",
    })
  }
  if (!textOf(info.finish)) {
    if (call.retried)
      throw new JudgeError("the judge's provider asked to retry", { retryable: true, outcome: "http_retry" })
    throw new JudgeError("judge answer has no text", { retryable: false, outcome: "bad_body" })
  }
  const parts = Array.isArray(data.parts) ? data.parts.map(asRecord) : []
  const content = parts
    .flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : []))
    .join("")
  const tokens = asRecord(info.tokens)
  const input = typeof tokens.input === "number" ? tokens.input : undefined
  const output = typeof tokens.output === "number" ? tokens.output : undefined
  const usage = {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input !== undefined && output !== undefined ? input + output : undefined,
    prompt_tokens_details: { cached_tokens: asRecord(tokens.cache).read },
  }
  return { status: 200, content, usage } satisfies JudgeAnswer
}

/** The judge sessions of one plugin instance: open ones with what they hold, and recently closed ones. */
interface JudgeSessions {
  running: Map<string, JudgeCall>
  /** Closed judge sessions: their late events (a second idle, the deletion) are still theirs. */
  closed: Set<string>
  /** After a refusal (a bad key, an unknown model) repeats for every call, and opencode shows each in red. */
  pausedUntil: number
}

/** A route model named `provider/model` (the model id may hold more slashes) as opencode's model reference. */
function modelRefOf(model: string): { providerID: string; modelID: string } {
  const [providerID = "", ...rest] = model.split("/")
  return { providerID, modelID: rest.join("/") }
}

/** opencode 2's one-shot model call as a judge answer: no system prompt there, so the prompt leads the text. */
async function judgeByGenerate(
  request: JudgeRequest,
  generate: NonNullable<HostClient["generate"]>,
  timeoutMs: number,
): Promise<JudgeAnswer> {
  const { providerID, modelID } = modelRefOf(request.model)
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new JudgeError(`judge timed out after ${timeoutMs} ms`, { retryable: true, outcome: "timeout" })),
      timeoutMs,
    )
  })
  try {
    const prompt = `${request.prompt}\n\n${judgeUserContent(request)}`
    const answer = await Promise.race([generate({ model: { providerID, modelID }, prompt }), timeout])
    if (typeof answer?.text !== "string" || !answer.text.trim()) {
      throw new JudgeError("judge answer has no text", { retryable: false, outcome: "bad_body" })
    }
    // opencode 2 reports no token counts for this call.
    return { status: 200, content: answer.text, usage: undefined }
  } catch (error) {
    if (error instanceof JudgeError) throw error
    const failure = asRecord(error)
    const status = [failure.statusCode, failure.status].find((value) => typeof value === "number") as number | undefined
    throw new JudgeError(
      status ? `judge answered HTTP ${status}` : `judge failed (${clip(describeError(error), 120)})`,
      {
        status,
        retryable: status === undefined || isRetryableStatus(status),
        outcome: status ? `http_${status}` : "route_error",
      },
    )
  } finally {
    clearTimeout(timer)
  }
}

interface RouteEffects {
  client: HostClient
  now: () => number
  timeoutMs: number
}

/**
 * One judge call on the opencode route: a judge session on opencode 1, `generate.text` on opencode 2. A
 * provider that refuses for good makes the route rest, so opencode shows its error once, not once per claim.
 */
async function judgeOnRoute(request: JudgeRequest, sessions: JudgeSessions, effects: RouteEffects) {
  if (effects.now() < sessions.pausedUntil) {
    throw new JudgeError("the judge's provider refused it earlier; resting", {
      retryable: false,
      outcome: "route_paused",
    })
  }
  const { client } = effects
  try {
    return client.generate
      ? await judgeByGenerate(request, client.generate.bind(client), effects.timeoutMs)
      : await judgeInSession(request, sessions, effects)
  } catch (error) {
    if (error instanceof JudgeError && !error.retryable && error.status !== undefined) {
      sessions.pausedUntil = effects.now() + ROUTE_PAUSE_MS
    }
    throw error
  }
}

/**
 * One judge call as a session of its own: opened as a child of the user's session with a title (so opencode
 * makes no title request and lists it nowhere), prompted on the hidden agent, aborted on timeout, and
 * deleted once its prompt has resolved.
 */
async function judgeInSession(
  request: JudgeRequest,
  sessions: JudgeSessions,
  { client, timeoutMs }: RouteEffects,
): Promise<JudgeAnswer> {
  const created = await client.session.create({
    body: { ...(request.sessionID ? { parentID: request.sessionID } : {}), title: JUDGE_SESSION_TITLE },
  })
  const id = textOf(created?.data?.id)
  if (created?.error !== undefined || !id) {
    throw new JudgeError("opencode opened no judge session", { retryable: true, outcome: "route_error" })
  }
  const call: JudgeCall = { prompt: request.prompt, maxTokens: request.maxTokens, retried: false, timedOut: false }
  sessions.running.set(id, call)
  const timer = setTimeout(() => {
    call.timedOut = true
    void client.session.abort({ path: { id } }).catch(() => {})
  }, timeoutMs)
  try {
    const result = await client.session.prompt({
      path: { id },
      body: {
        agent: JUDGE_AGENT,
        model: modelRefOf(request.model),
        parts: [{ type: "text", text: judgeUserContent(request) }],
      },
    })
    return readSessionAnswer(result, call, timeoutMs)
  } finally {
    clearTimeout(timer)
    sessions.running.delete(id)
    sessions.closed.add(id)
    trimOldest(sessions.closed, LIMITS.sessions)
    // Only once the prompt has resolved: deleting a session mid-prompt leaves the provider request open.
    await client.session.delete({ path: { id } }).catch(() => {})
  }
}

/**
 * Owns the opencode route: the hidden judge agent, the judge sessions (each a child of the user's session,
 * with a title, so opencode makes no title request and lists it nowhere), their prompt and answer budget, and
 * the answers read out of them.
 */
export function createOpencodeRoute({ config, deps, notifier }: PartContext) {
  const client = deps.client
  const sessions: JudgeSessions = { running: new Map(), closed: new Set(), pausedUntil: 0 }
  const { running, closed } = sessions
  const seen: { smallModel?: string; model?: string } = {}
  let models: Promise<CallableModel[] | undefined> | undefined
  const effects: RouteEffects = { client, now: deps.now, timeoutMs: config.judge.timeoutMs }

  return {
    attempt: ((request) => judgeOnRoute(request, sessions, effects)) as JudgeAttempt,
    owns: (sessionID: string | undefined) =>
      sessionID !== undefined && (running.has(sessionID) || closed.has(sessionID)),
    /** The `config` hook: registers the hidden judge agent, with no tools, and learns the user's models. */
    configure(cfg: Record<string, unknown>) {
      seen.smallModel = textOf(cfg.small_model)
      seen.model = textOf(cfg.model)
      cfg.agent = {
        ...asRecord(cfg.agent),
        [JUDGE_AGENT]: {
          mode: "primary",
          hidden: true,
          description: "ragfaith's faithfulness judge (internal)",
          prompt: JUDGE_PROMPTS.machine,
          temperature: 0,
          permission: { "*": "deny" },
        },
      }
    },
    /** A judge session's system prompt is the judge prompt alone: no environment block, no AGENTS.md. */
    system(sessionID: string | undefined, output: { system?: unknown }) {
      const call = sessionID ? running.get(sessionID) : undefined
      if (call && Array.isArray(output.system)) output.system.splice(0, output.system.length, call.prompt)
    },
    params(sessionID: string, output: { maxOutputTokens?: unknown }) {
      const call = running.get(sessionID)
      if (call) output.maxOutputTokens = call.maxTokens
    },
    /**
     * A judge session failed: opencode shows every session's error as a red toast over the conversation,
     * this one too. The plugin says what it means under the reply instead, so that toast goes at once. An
     * abort (the plugin's own timeout or cut) shows no toast.
     */
    failed(sessionID: string, error: unknown) {
      if (!(running.has(sessionID) || closed.has(sessionID))) return
      if (asRecord(error).name !== "MessageAbortedError") notifier.dismissToast()
    },
    /**
     * A provider that asks a judge session to retry is cut short at once: opencode's own retries can hold a
     * call for minutes and end in an error toast; the plugin's backoff decides instead.
     */
    retried(sessionID: string) {
      const call = running.get(sessionID)
      if (!call) return
      call.retried = true
      void client.session.abort({ path: { id: sessionID } }).catch(() => {})
    },
    /**
     * The judge settings with the models filled in from the user's opencode config, or why none can judge.
     * The first time, which model judges: what to tell under the reply (it spends the user's own tokens).
     */
    async settings(
      agentModel: string | undefined,
    ): Promise<{ judge: JudgeSettings; told: string | undefined } | { problem: string }> {
      models ??= client.config
        .providers()
        .then((result) => (result?.error === undefined ? readCallableModels(result?.data) : undefined))
        .catch(() => undefined)
      const callable = await models
      if (!callable) return { problem: "ragfaith: could not read your opencode providers; nothing is judged" }
      const picked = pickRouteModels(config.judge, callable, seen, agentModel)
      if ("problem" in picked) return picked
      const told = notifier.tellOnce(
        "route-model",
        `ragfaith: the judge is ${picked.main}, one of your models; RFE_JUDGE_MAIN_MODEL picks another`,
        "notice",
      )
      return { judge: { ...config.judge, mainModel: picked.main, fallbackModel: picked.fallback }, told }
    },
  }
}

export type OpencodeRoute = ReturnType<typeof createOpencodeRoute>
