// Judging one claim: records, cache, judge and second opinion, and when a flag is earned.
import { LIMITS, mapConcurrent } from "../base/bounds.ts"
import { type Tally, tallyInto } from "../base/counters.ts"
import { clip, clockTime } from "../base/text.ts"
import { resolvePath, type ToolRecord } from "../capture/provenance.ts"
import { redactSecrets } from "../capture/redact/redact.ts"
import { decideProcessClaim, type RecordContext, readProcessClaim, shellRuns } from "../claims/process.ts"
import { type Claim, isVerbatimInSources, normalizeSources } from "../claims/split.ts"
import type { Config, JudgeSettings } from "../config/config.ts"
import type { Notifier } from "../out/notifier.ts"
import type { PartContext, SessionState } from "../turn/session.ts"
import { cacheKey, type VerdictCache } from "./cache.ts"
import {
  describeError,
  directAttempt,
  hideKey,
  type JudgeCompat,
  JudgeError,
  judgeClaim,
  retryJudge,
  scrubError,
  type TokenLogLine,
} from "./client.ts"
import { secondOpinionModel, selectJudgeModel } from "./models.ts"
import { type JudgeRequest, PROCESS_SOURCE, pickPrompt, renderContext } from "./prompt.ts"
import type { OpencodeRoute } from "./route.ts"
import {
  anchorQuote,
  type ClaimResult,
  type FlaggedClaim,
  NOTE_REASON_CHARS,
  quotableTexts,
  type RawVerdict,
} from "./verdict.ts"

/** How much of the user's question and of the preceding sentences goes to the judge. */
export const QUESTION_CHARS = 300

/** The evidence one reply is judged against, fixed when judging starts. */
export interface Evidence {
  /** The judge settings with their models settled (the opencode route picks them when judging starts). */
  judge: JudgeSettings
  sessionID: string
  model: string
  /** The agent's own model, which never judges. */
  active: string | undefined
  prompt: string
  /** What every request of the reply shares: the sources and the user's question. */
  context: string
  /** Normalised source text, for the zero-token verbatim gate. */
  sources: string
  sourceIds: ReadonlySet<string>
  /** Source id → the label a note cites. */
  refs: ReadonlyMap<string, string>
  /** Source id → its text as quotes are checked against it. */
  texts: ReadonlyMap<string, string>
  records: readonly ToolRecord[]
  /** What the records alone cannot show: files of the work tree, and whether older records were dropped. */
  recordContext: RecordContext
}

export function gatherEvidence(
  state: SessionState,
  config: Config,
  judge: JudgeSettings,
  exists?: (path: string) => boolean,
): Evidence {
  const premises = [...state.premises]
  const refs = new Map(premises.map((premise) => [premise.id, premise.ref]))
  refs.set(PROCESS_SOURCE.id, PROCESS_SOURCE.label)
  const active = config.activeModel ?? state.activeModel
  const asked = config.checks.question ? state.lastUser?.text : undefined
  const question = asked ? clip(redactSecrets(asked), QUESTION_CHARS) : undefined
  const lines = state.records.map((record) => record.line)
  return {
    judge,
    sessionID: state.id,
    model: selectJudgeModel(active, judge),
    active,
    prompt: pickPrompt(premises),
    context: renderContext(premises, lines, question),
    sources: normalizeSources(premises),
    sourceIds: new Set(refs.keys()),
    refs,
    texts: quotableTexts(premises, lines),
    records: [...state.records],
    recordContext: { exists, truncated: state.records.length >= LIMITS.toolRecords, runs: shellRuns(state.records) },
  }
}

/** How the judge calls of one reply went: what the user hears about the judge's health follows from it. */
export interface JudgeRun {
  failure: JudgeError | undefined
  unjudged: number
  answered: number
  unreadable: number
}

export const newJudgeRun = (): JudgeRun => ({ failure: undefined, unjudged: 0, answered: 0, unreadable: 0 })

/**
 * What a broken judge means for the user, in at most two lines: what happened, since when, and what to check.
 * The technical detail stays in the log.
 */
export function describeOutage(failure: JudgeError, judge: JudgeSettings, model: string, since: number): string {
  const at = clockTime(since)
  const status = failure.status
  if (judge.route === "opencode") {
    if (status === 401 || status === 403) {
      return `Your provider refused the judge (HTTP ${status}): check its key. Judging rests 10 minutes. Model: ${model}`
    }
    if (failure.outcome.startsWith("route"))
      return `opencode could not run the judge model ${model}; replies go unchecked.`
  }
  if (status === 401 || status === 403)
    return `The judge refused the key (HTTP ${status}): check ${judge.keyName}. Replies go unchecked.`
  if (status === 429) return `The judge is rate-limited since ${at}; replies go unchecked until it answers.`
  if (status !== undefined && status >= 500)
    return `The judge fails (HTTP ${status}) since ${at}; replies go unchecked until it answers.`
  if (status !== undefined && failure.outcome.startsWith("http")) {
    return `The judge rejects the requests (HTTP ${status}): check RFE_JUDGE_BASE_URL and RFE_JUDGE_MAIN_MODEL.`
  }
  if (failure.outcome === "timeout")
    return `The judge has not answered since ${at}; replies go unchecked until it does.`
  if (failure.outcome === "bad_body")
    return "The judge answers something other than a chat completion: check RFE_JUDGE_BASE_URL."
  return `The judge is unreachable since ${at} (check RFE_JUDGE_BASE_URL); replies go unchecked.`
}

/** A broken or unreadable judge is told while it lasts (at most every ten minutes); an answer clears it. */
export function noteJudgeHealth(
  notifier: Notifier,
  state: SessionState,
  evidence: Pick<Evidence, "judge" | "model">,
  run: JudgeRun,
) {
  const { failure } = run
  const { judge, model } = evidence
  if (failure) {
    const kind = failure.status === undefined ? "network" : `http-${failure.status}`
    notifier.log("warn", `ragfaith: ${failure.message}; ${run.unjudged} claim(s) of the last reply were not judged`, {
      sessionID: state.id,
      status: failure.status,
      retryable: failure.retryable,
    })
    notifier.reportFailure(kind, (since) => describeOutage(failure, judge, model, since))
  } else if (run.unreadable > 0 && run.unreadable === run.answered) {
    // Every answer came back without a verdict: likely a model that ignores the JSON instruction.
    notifier.log("warn", "ragfaith: the judge answered without a readable verdict", {
      model,
      unreadable: run.unreadable,
    })
    notifier.reportFailure("unreadable", `The judge ${model} answers without a verdict: check RFE_JUDGE_MAIN_MODEL.`)
  } else if (run.answered > 0) {
    // The judge works again: a later failure deserves a toast of its own.
    notifier.clearFailures((kind) => kind === "network" || kind.startsWith("http-"))
  }
}

/** What asking for a session's verdicts needs: the settings, the clock, its counters, the cache and the way to the judge. */
export interface VerdictSource {
  config: Config
  now: () => number
  count: Tally
  cache: VerdictCache
  post: (request: JudgeRequest) => Promise<string>
  /** How the session's second-opinion models have answered; undefined asks every time. */
  seconds?: SecondOpinions
}

/** A second-opinion model that leaves this many calls in a row unanswered is not asked again in the session. */
export const SECOND_SILENT_LIMIT = 3

/** One session's second-opinion models: which still answer, and the once-told word when one stops being asked. */
export interface SecondOpinions {
  benched(model: string): boolean
  answered(model: string, ok: boolean): void
}

/** The second opinions of a session: its models' silences counted in the session, the benching told once. */
export function secondOpinionsOf(state: SessionState, notifier: Notifier): SecondOpinions {
  return {
    benched: (model) => (state.silentSeconds.get(model) ?? 0) >= SECOND_SILENT_LIMIT,
    answered(model, ok) {
      const silent = ok ? 0 : (state.silentSeconds.get(model) ?? 0) + 1
      state.silentSeconds.set(model, silent)
      if (silent !== SECOND_SILENT_LIMIT) return
      notifier.log("warn", `ragfaith: the second judge did not answer ${silent} times in a row; not asked again`, {
        sessionID: state.id,
        model,
      })
      notifier.tellOnce(
        `second-silent:${state.id}:${model}`,
        `ragfaith: the second judge ${model} does not answer; this session's flags rest on one judge with a verified quote`,
      )
    },
  }
}

/** One model's verdict on a claim, from the cache or the judge; undefined when it went unjudged. */
export async function verdictFrom(
  ask: VerdictSource,
  model: string,
  claim: Claim,
  evidence: Evidence,
  run: JudgeRun,
): Promise<RawVerdict | undefined> {
  const { config, count, cache } = ask
  const before = config.checks.context ? claim.before : undefined
  const key = cacheKey(model, evidence.context, before ? `${before}\x00${claim.text}` : claim.text)
  const hit = cache.get(key)
  if (hit) {
    count("cacheHits")
    return { verdict: hit.v, source: hit.s, quote: hit.q, reason: hit.r, via: "cache" }
  }
  // After one call has failed for good, the rest of the reply would only fail the same way.
  if (run.failure) {
    run.unjudged++
    return undefined
  }
  const request = {
    model,
    prompt: evidence.prompt,
    context: evidence.context,
    before: before && redactSecrets(before),
    claim: redactSecrets(claim.text),
    sessionID: evidence.sessionID,
  }
  try {
    const result = await judgeClaim(ask.post, request, evidence.sourceIds, count)
    count("claimsJudged")
    run.answered++
    if (result.via === "parse-fallback") run.unreadable++
    else {
      const { verdict: v, source: s, quote: q, reason: r } = result
      cache.put(model, { k: key, v, ...(s ? { s } : {}), ...(q ? { q } : {}), ...(r ? { r } : {}), t: ask.now() })
    }
    return result
  } catch (error) {
    count("callFailures")
    run.unjudged++
    run.failure ??=
      error instanceof JudgeError
        ? error
        : new JudgeError(scrubError(describeError(error), config.judge.apiKey), { retryable: false, outcome: "error" })
    return undefined
  }
}

/**
 * The checks a contradiction must pass before it may enter a note: its quote stands in a source, and a
 * second judge model agrees, with a quote of its own that stands in a source. A contradiction that fails either is
 * kept as unverifiable. A second judge that does not answer (an error, a timeout, no readable verdict) is no
 * disagreement: the first verdict, its quote verified, stands. Its calls run apart from the first judge's
 * (`second`), so its failures neither stop the reply's judging nor read as the main judge's outage.
 */
export async function earnFlag(
  ask: VerdictSource,
  claim: Claim,
  first: RawVerdict,
  evidence: Evidence,
  second: JudgeRun,
): Promise<ClaimResult> {
  const { checks } = ask.config
  const anchored = checks.quotes ? anchorQuote(first.quote, first.source, evidence.texts) : first.source
  if (checks.quotes && !anchored) {
    ask.count("unanchored")
    return { claim, ...first, verdict: "unverifiable", demoted: "unanchored" }
  }
  const other = checks.secondOpinion ? secondOpinionModel(evidence.model, evidence.active, evidence.judge) : undefined
  if (!other) return { claim, ...first, source: anchored }
  if (ask.seconds?.benched(other)) {
    ask.count("secondSilent")
    return { claim, ...first, source: anchored, second: "silent" }
  }
  await ask.cache.load(other)
  ask.count("secondOpinions")
  // Each flag asks anew: an earlier failure of the second model in this reply is no answer for this claim.
  second.failure = undefined
  const opinion = await verdictFrom(ask, other, claim, evidence, second)
  const answered = opinion !== undefined && opinion.via !== "parse-fallback"
  ask.seconds?.answered(other, answered)
  if (!answered) {
    ask.count("secondSilent")
    return { claim, ...first, source: anchored, second: "silent" }
  }
  // An agreement must hold up as the first verdict did: a contradiction whose quote stands in no source is
  // the second judge's unverifiable, and demotes the flag like any real answer other than unfaithful.
  const agrees =
    opinion.verdict === "unfaithful" &&
    (!checks.quotes || anchorQuote(opinion.quote, opinion.source, evidence.texts) !== undefined)
  if (!agrees) {
    ask.count("disagreements")
    return { claim, ...first, source: anchored, verdict: "unverifiable", demoted: "disagreed" }
  }
  return { claim, ...first, source: anchored }
}

/** One claim's result: the free checks first, then the cache or the judge; undefined when it went unjudged. */
export async function settleClaim(
  ask: VerdictSource,
  claim: Claim,
  evidence: Evidence,
  run: JudgeRun,
  second: JudgeRun = newJudgeRun(),
): Promise<ClaimResult | undefined> {
  if (isVerbatimInSources(claim, evidence.sources)) {
    ask.count("gateHits")
    return {
      claim,
      verdict: "faithful",
      source: undefined,
      quote: undefined,
      reason: undefined,
      via: "gate",
    }
  }
  const asserted = ask.config.checks.records ? readProcessClaim(claim.raw ?? claim.text) : undefined
  const decided = asserted && decideProcessClaim(asserted, evidence.records, evidence.recordContext)
  if (decided) {
    ask.count("recordDecisions")
    const reason = "the session's tool calls decide it"
    return { claim, ...decided, source: PROCESS_SOURCE.id, reason, via: "records" }
  }
  const first = await verdictFrom(ask, evidence.model, claim, evidence, run)
  if (!first) return undefined
  return first.verdict === "unfaithful" ? earnFlag(ask, claim, first, evidence, second) : { claim, ...first }
}

/**
 * Owns the verdicts of a reply's claims. The free checks come first (verbatim in a source; the session's own
 * records), then the cache or the judge; a contradiction is flagged only when its quote stands in the
 * source and a second judge model agrees.
 */
export function createClaimJudge(
  { config, deps, notifier, counters, health, directory }: PartContext,
  cache: VerdictCache,
  route: OpencodeRoute,
) {
  const compat: JudgeCompat = { omitReasoning: false }
  const attempt = config.judge.route === "opencode" ? route.attempt : directAttempt(config.judge, compat, deps.fetch)
  /** How one session's claims are asked for: counted for the session and the plugin, tokens to the token log too. */
  const askFor = (state: SessionState): VerdictSource => {
    const count = tallyInto(counters, state.counters)
    const spend = (line: TokenLogLine) => {
      notifier.tokenLog(line)
      count("tokensIn", line.prompt_tokens ?? 0)
      count("tokensOut", line.completion_tokens ?? 0)
    }
    const post = (request: JudgeRequest) => retryJudge(attempt, config.judge, request, deps, count, spend, compat)
    return { config, now: deps.now, count, cache, post, seconds: secondOpinionsOf(state, notifier) }
  }
  /** The judge settings for this reply; on the opencode route, with the models picked from the user's config. */
  const settle = async (state: SessionState) => {
    if (config.judge.route !== "opencode") return config.judge
    const judge = await route.settings(config.activeModel ?? state.activeModel)
    if (!("problem" in judge)) return judge
    notifier.reportFailure("no-judge-model", judge.problem)
    return undefined
  }
  /** The judged claims of a reply, their sources named as the note cites them. */
  return async (state: SessionState, claims: readonly Claim[]) => {
    const judge = await settle(state)
    if (!judge) return { results: [] as ClaimResult[], model: undefined }
    const evidence = gatherEvidence(state, config, judge, (path) => deps.fileExists(resolvePath(path, directory)))
    health.model = evidence.model
    await cache.load(evidence.model)
    const run = newJudgeRun()
    const second = newJudgeRun()
    const ask = askFor(state)
    const results = await mapConcurrent(claims, config.judge.concurrency, (claim) =>
      settleClaim(ask, claim, evidence, run, second),
    )
    noteJudgeHealth(notifier, state, evidence, run)
    if (run.failure) health.lastError = { message: run.failure.message, at: deps.now() }
    const judged = results
      .filter((result): result is ClaimResult => result !== undefined)
      .map((result) => ({ ...result, source: result.source && (evidence.refs.get(result.source) ?? result.source) }))
    return { results: judged, model: evidence.model }
  }
}

export type ClaimJudge = ReturnType<typeof createClaimJudge>

export const NOTE_CLAIM_CHARS = 220

export const NOTE_QUOTE_CHARS = 200

/**
 * Privacy applied once: the judged claims as every output (note, log, stderr, toast, report) shows them, with
 * secrets redacted, the judge key hidden, and each text clipped. No output path redacts again.
 */
export function toFlaggedItems(results: readonly ClaimResult[], apiKey: string | undefined): FlaggedClaim[] {
  const sanitize = (text: string, max: number) => clip(hideKey(redactSecrets(text), apiKey), max)
  return results.map((result) => ({
    claim: sanitize(result.claim.text, NOTE_CLAIM_CHARS),
    verdict: result.verdict,
    source: result.source,
    quote: result.quote === undefined ? undefined : sanitize(result.quote, NOTE_QUOTE_CHARS),
    reason: result.reason === undefined ? undefined : sanitize(result.reason, NOTE_REASON_CHARS),
    via: result.via,
    ...(result.demoted ? { demoted: result.demoted } : {}),
    ...(result.second ? { second: result.second } : {}),
  }))
}
