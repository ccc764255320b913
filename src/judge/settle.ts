// Settling one claim: the free checks (gate, records), the cache, the judge and second opinion, and when a flag is earned.

import { LIMITS, mapConcurrent } from "../base/bounds.ts"
import { type Counters, newCounters, type Tally, tallyInto } from "../base/counters.ts"
import { clip, describeError } from "../base/text.ts"
import { type NamedRead, readNamedFiles } from "../capture/named.ts"
import { resolvePath } from "../capture/provenance.ts"
import { redactSecrets } from "../capture/redact/redact.ts"
import { scrubError } from "../capture/redact/scrub.ts"
import type { Config, JudgeSettings } from "../config/config.ts"
import type { Notifier, TokenLogLine } from "../config/effects.ts"
import type { PartContext, SessionState } from "../state/session.ts"
import type { Claim, ClaimResult, JudgeVerdict, RawVerdict, ToolRecord } from "../state/shapes.ts"
import { type CacheRecord, cacheKey, type VerdictCache } from "./cache.ts"
import { directAttempt, JUDGE_MAX_TOKENS, type JudgeCompat, JudgeError, judgeClaim, retryJudge } from "./client.ts"
import { isVerbatimInSources, normalizeSources } from "./gate.ts"
import { describeNoJudge, describeOutage, type JudgeRun, newJudgeRun, noteJudgeHealth } from "./health.ts"
import { type SecondOpinions, secondOpinionModel, secondOpinionsOf, selectJudgeModel } from "./models.ts"
import { readProcessClaim } from "./process-claim.ts"
import { type JudgeRequest, PROCESS_SOURCE, pickPrompt, renderContext } from "./prompt.ts"
import { decideProcessClaim, type RecordContext, shellRuns } from "./records.ts"
import { indexSources, pointsBack, type SourceIndex, speaksTo } from "./relevance.ts"
import type { OpencodeRoute } from "./route.ts"
import { anchorQuote, parseBatchVerdicts, quotableTexts } from "./verdict.ts"

/** How much of the user's question and of the preceding sentences goes to the judge. */
export const QUESTION_CHARS = 300

/** The evidence one reply is judged against, fixed when judging starts. */
interface Evidence {
  /** The judge settings with their models settled (the opencode route picks them when judging starts). */
  judge: JudgeSettings
  sessionID: string
  model: string
  /** The agent's own model, which never judges. */
  active: string | undefined
  prompt: string
  /** The prompt of a request that holds several claims (RFE_JUDGE_BATCH > 1). */
  batchPrompt: string
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
  /** The sources alone, without the user's question: what a verdict reused across replies is keyed by. */
  sourcesOnly: string
  /** Every term of the sources, when the relevance gate is on: one index per reply, not a scan per claim. */
  terms: SourceIndex | undefined
}

/**
 * Whether the relevance gate applies: only in a mode that flags nothing but contradictions. A statement no
 * source speaks to can only be faithful or unverifiable, which changes no note there; strict mode flags
 * unverifiable statements and so sends them all.
 */
function relevanceGated(config: Config): boolean {
  return config.checks.relevance && !config.flagVerdicts.has("unverifiable")
}

function gatherEvidence(
  state: SessionState,
  config: Config,
  judge: JudgeSettings,
  exists?: (path: string) => boolean,
  named: readonly NamedRead[] = [],
): Evidence {
  // The files the check read go last: the sources the agent pulled keep their place in the shared prefix.
  const premises = [...state.premises, ...named.map((read) => read.premise)]
  const refs = new Map(premises.map((premise) => [premise.id, premise.ref]))
  refs.set(PROCESS_SOURCE.id, PROCESS_SOURCE.label)
  const active = config.activeModel ?? state.activeModel
  const asked = config.checks.question ? state.lastUser?.text : undefined
  const question = asked ? clip(redactSecrets(asked), QUESTION_CHARS) : undefined
  const lines = state.records.map((record) => record.line)
  const truncated = state.records.length >= LIMITS.toolRecords
  const sourceTexts = premises.map((premise) => premise.text)
  return {
    judge,
    sessionID: state.id,
    model: selectJudgeModel(active, judge),
    active,
    prompt: pickPrompt(premises),
    batchPrompt: pickPrompt(premises, true),
    context: renderContext(premises, lines, question),
    sourcesOnly: renderContext(premises, lines),
    sources: normalizeSources(premises),
    sourceIds: new Set(refs.keys()),
    refs,
    texts: quotableTexts(premises, lines),
    records: [...state.records],
    recordContext: { exists, truncated, earlier: state.earlier, runs: shellRuns(state.records) },
    terms: relevanceGated(config) ? indexSources(sourceTexts, lines) : undefined,
  }
}

/** What asking for a session's verdicts needs: the settings, the clock, its counters, the cache and the way to the judge. */
interface VerdictSource {
  config: Config
  now: () => number
  count: Tally
  cache: VerdictCache
  post: (request: JudgeRequest) => Promise<string>
  /** How the session's second-opinion models have answered; undefined asks every time. */
  seconds?: SecondOpinions
}

/** The sentences before a claim, when the judge is to see them. */
function contextOf(claim: Claim, config: Config): string | undefined {
  return config.checks.context ? claim.before : undefined
}

/** A claim's cache key for one model: the same whether it was judged alone or in a batch. */
function claimKey(model: string, claim: Claim, evidence: Pick<Evidence, "context">, config: Config): string {
  const before = contextOf(claim, config)
  return cacheKey(model, evidence.context, before ? `${before}\x00${claim.text}` : claim.text)
}

/**
 * The key of a verdict that holds whatever sentences stand before its statement and whatever the user asked,
 * or undefined when the statement's verdict may rest on them. The rule: a statement that points back ("it",
 * "this", "sie", "dort") always keeps its context in the key; any other statement is looked up without it
 * too, and a verdict is stored that way only when it is `faithful` with a quote that stands in a source
 * (`standsAlone`), so what decided it is a source's own words, not the sentences before or the question. The
 * sources stay in the key: a verdict is reused only against the same sources, byte for byte. A contradiction
 * is never reused this way: a flag is earned anew with the context the judge is shown.
 */
function contextFreeKey(model: string, claim: Claim, evidence: Pick<Evidence, "sourcesOnly">, config: Config) {
  if (!config.checks.reuse || pointsBack(claim.text)) return undefined
  return cacheKey(model, evidence.sourcesOnly, `\x01${claim.text}`)
}

/** Whether a verdict rests on a source's words alone: faithful, with a quote that stands in the source it names. */
function standsAlone(verdict: JudgeVerdict, evidence: Pick<Evidence, "texts">): boolean {
  return verdict.verdict === "faithful" && anchorQuote(verdict.quote, verdict.source, evidence.texts) !== undefined
}

/** A cached verdict for a claim: the one judged with the same sentences before it, else one that holds without them. */
function cachedVerdict(cache: VerdictCache, model: string, claim: Claim, evidence: Evidence, config: Config) {
  const hit = cache.get(claimKey(model, claim, evidence, config))
  if (hit) return hit
  const free = contextFreeKey(model, claim, evidence, config)
  return free ? cache.get(free) : undefined
}

/** Caches a judged verdict under its key, and without the context when it stands alone. */
function remember(ask: VerdictSource, model: string, claim: Claim, evidence: Evidence, verdict: JudgeVerdict) {
  const at = ask.now()
  ask.cache.put(model, cacheRecord(claimKey(model, claim, evidence, ask.config), verdict, at))
  const free = contextFreeKey(model, claim, evidence, ask.config)
  if (free && standsAlone(verdict, evidence)) ask.cache.put(model, cacheRecord(free, verdict, at))
}

function cacheRecord(key: string, verdict: JudgeVerdict, at: number): CacheRecord {
  const { verdict: v, source: s, quote: q, reason: r } = verdict
  return { k: key, v, ...(s ? { s } : {}), ...(q ? { q } : {}), ...(r ? { r } : {}), t: at }
}

/** One model's verdict on a claim, from the cache or the judge; undefined when it went unjudged. */
async function verdictFrom(
  ask: VerdictSource,
  model: string,
  claim: Claim,
  evidence: Evidence,
  run: JudgeRun,
): Promise<RawVerdict | undefined> {
  const { config, count, cache } = ask
  const before = contextOf(claim, config)
  const key = claimKey(model, claim, evidence, config)
  const answered = run.batched.get(key)
  if (answered) return answered
  const hit = cachedVerdict(cache, model, claim, evidence, config)
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
    else remember(ask, model, claim, evidence, result)
    return result
  } catch (error) {
    failed(ask, run, error)
    run.unjudged++
    return undefined
  }
}

/** A call that failed for good: counted, and the reply's first failure kept for what the user is told. */
function failed(ask: VerdictSource, run: JudgeRun, error: unknown) {
  ask.count("callFailures")
  run.failure ??=
    error instanceof JudgeError
      ? error
      : new JudgeError(scrubError(describeError(error), ask.config.judge.apiKey), {
          retryable: false,
          outcome: "error",
        })
}

/**
 * The checks a contradiction must pass before it may enter a note: its quote stands in a source, and a
 * second judge model agrees, with a quote of its own that stands in a source. A contradiction that fails either is
 * kept as unverifiable. A second judge that does not answer (an error, a timeout, no readable verdict) is no
 * disagreement: the first verdict, its quote verified, stands. Its calls run apart from the first judge's
 * (`second`), so its failures neither stop the reply's judging nor read as the main judge's outage.
 */
async function earnFlag(
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
  return { claim, ...first, source: anchored, second: "agreed" }
}

/** A claim's result from the free checks alone: found word for word in a source, or decided by the records. */
function freeResult(claim: Claim, evidence: Evidence, config: Config): ClaimResult | undefined {
  if (isVerbatimInSources(claim, evidence.sources)) {
    return { claim, verdict: "faithful", source: undefined, quote: undefined, reason: undefined, via: "gate" }
  }
  const asserted = config.checks.records ? readProcessClaim(claim.raw ?? claim.text) : undefined
  const decided = asserted && decideProcessClaim(asserted, evidence.records, evidence.recordContext)
  if (!decided) return undefined
  const reason = "the session's tool calls decide it"
  return { claim, ...decided, source: PROCESS_SOURCE.id, reason, via: "records" }
}

/** One claim's result: the free checks first, then the cache or the judge; undefined when it went unjudged. */
async function settleClaim(
  ask: VerdictSource,
  claim: Claim,
  evidence: Evidence,
  run: JudgeRun,
  second: JudgeRun = newJudgeRun(),
): Promise<ClaimResult | undefined> {
  const free = freeResult(claim, evidence, ask.config)
  if (free) {
    ask.count(free.via === "gate" ? "gateHits" : "recordDecisions")
    return free
  }
  const first = await verdictFrom(ask, evidence.model, claim, evidence, run)
  if (!first) return undefined
  return first.verdict === "unfaithful" ? earnFlag(ask, claim, first, evidence, second) : { claim, ...first }
}

/**
 * With RFE_JUDGE_BATCH > 1, the claims of a reply that the free checks and the cache leave open are asked
 * about in groups, the sources once per group. What a batched answer gives is taken per claim; a claim it
 * leaves out, or an answer that cannot be read, goes back to one request per claim.
 */
async function judgeInBatches(ask: VerdictSource, claims: readonly Claim[], evidence: Evidence, run: JudgeRun) {
  const size = evidence.judge.batch
  const open = claims.filter(
    (claim) =>
      !freeResult(claim, evidence, ask.config) &&
      !cachedVerdict(ask.cache, evidence.model, claim, evidence, ask.config),
  )
  if (size < 2 || open.length < 2) return
  const groups: Claim[][] = []
  for (let at = 0; at < open.length; at += size) groups.push(open.slice(at, at + size))
  await mapConcurrent(groups, ask.config.judge.concurrency, (group) => judgeBatch(ask, group, evidence, run))
}

/** One batched request: each claim's verdict cached and kept for the reply, exactly as if asked alone. */
async function judgeBatch(ask: VerdictSource, group: readonly Claim[], evidence: Evidence, run: JudgeRun) {
  if (run.failure) return
  const { config, count } = ask
  const batch = group.map((claim, at) => {
    const before = contextOf(claim, config)
    return { id: `c${at + 1}`, claim: redactSecrets(claim.text), ...(before ? { before: redactSecrets(before) } : {}) }
  })
  const request = {
    model: evidence.model,
    prompt: evidence.batchPrompt,
    context: evidence.context,
    claim: "",
    batch,
    maxTokens: JUDGE_MAX_TOKENS * group.length,
    sessionID: evidence.sessionID,
  }
  let content: string
  try {
    content = await ask.post(request)
  } catch (error) {
    failed(ask, run, error)
    return
  }
  run.answered++
  const verdicts = parseBatchVerdicts(
    content,
    batch.map((item) => item.id),
    evidence.sourceIds,
  )
  if (!verdicts || verdicts.size < group.length) count("batchParseErrors")
  group.forEach((claim, at) => {
    const verdict = verdicts?.get(`c${at + 1}`)
    if (!verdict) return
    count("claimsJudged")
    remember(ask, evidence.model, claim, evidence, verdict)
    run.batched.set(claimKey(evidence.model, claim, evidence, config), { ...verdict, via: "judge" })
  })
}

/**
 * Owns the verdicts of a reply's claims. The free checks come first (verbatim in a source; the session's own
 * records), then the cache or the judge; a contradiction is flagged only when its quote stands in the
 * source and a second judge model agrees.
 */
/** The files the claims name that no tool of the session read, for the check to read them (RFE_READ_NAMED). */
async function readNamed(
  state: SessionState,
  claims: readonly Claim[],
  directory: string,
  deps: PartContext["deps"],
  notifier: Notifier,
) {
  const read = new Set(state.premises.flatMap((premise) => (premise.path ? [premise.path] : [])))
  for (const record of state.records) if (record.kind === "read") for (const path of record.paths) read.add(path)
  const found = await readNamedFiles(
    claims.map((claim) => claim.raw ?? claim.text),
    read,
    directory,
    deps,
  )
  if (found.length) {
    notifier.log("debug", "ragfaith: the check read files the agent had not", {
      sessionID: state.id,
      files: found.map((named) => named.premise.ref),
    })
  }
  return found
}

/** The claims no source speaks to, held back from the judge (the relevance gate), and the claims still sent. */
function gateUnrelated(claims: readonly Claim[], evidence: Evidence, config: Config) {
  const { terms } = evidence
  const unrelated = terms
    ? claims.filter((claim) => !freeResult(claim, evidence, config) && !speaksTo(terms, claim))
    : []
  const skip = new Set(unrelated)
  return { unrelated, sent: skip.size ? claims.filter((claim) => !skip.has(claim)) : claims }
}

/** A settled claim with its source named as the note cites it, and the file when the check read it. */
function namedSource(result: ClaimResult, evidence: Evidence, files: ReadonlyMap<string, string>): ClaimResult {
  const file = result.source ? files.get(result.source) : undefined
  const source = result.source && (evidence.refs.get(result.source) ?? result.source)
  return { ...result, source, ...(file ? { readByCheck: file } : {}) }
}

export function createClaimJudge(
  { config, deps, notifier, counters, health, directory }: PartContext,
  cache: VerdictCache,
  route: OpencodeRoute,
) {
  const compat: JudgeCompat = { omitReasoning: false }
  const attempt = config.judge.route === "opencode" ? route.attempt : directAttempt(config.judge, compat, deps.fetch)
  /** How one reply's claims are asked for: counted for the reply, its session and the plugin, tokens to the token log too. */
  const askFor = (state: SessionState, reply: Counters): VerdictSource => {
    const count = tallyInto(counters, state.counters, reply)
    const spend = (line: TokenLogLine) => {
      notifier.tokenLog(line)
      count("tokensIn", line.prompt_tokens ?? 0)
      count("tokensOut", line.completion_tokens ?? 0)
    }
    const post = (request: JudgeRequest) => retryJudge(attempt, config.judge, request, deps, count, spend, compat)
    return { config, now: deps.now, count, cache, post, seconds: secondOpinionsOf(state, notifier) }
  }
  /**
   * The judge settings for this reply; on the opencode route, with the models picked from the user's config.
   * What to tell under the reply, when it is to be told now: which model judges, or that none can.
   */
  const settle = async (state: SessionState): Promise<{ judge?: JudgeSettings; told: string | undefined }> => {
    if (config.judge.route !== "opencode") return { judge: config.judge, told: undefined }
    const settled = await route.settings(config.activeModel ?? state.activeModel)
    if (!("problem" in settled)) return settled
    const told = notifier.reportFailure("no-judge-model", settled.problem, "notice")
    health.lastError = { message: describeNoJudge(settled.problem), at: deps.now() }
    return { told }
  }
  /**
   * The judged claims of a reply, their sources named as the note cites them; the files the check read; the
   * claims no source speaks to, which were not sent; what judging the reply cost; and what to tell under the
   * reply about the judge (which model judges, a refused key, no model to judge with), when it is to be told now.
   */
  return async (state: SessionState, claims: readonly Claim[]) => {
    const spend = newCounters()
    const none = {
      results: [] as ClaimResult[],
      model: undefined,
      readByCheck: [] as string[],
      unrelated: [] as Claim[],
      spend,
      second: undefined,
      told: [] as string[],
    }
    const { judge, told: advice } = await settle(state)
    const settled = advice ? [advice] : []
    if (!judge) return { ...none, told: settled }
    const named = config.readNamed ? await readNamed(state, claims, directory, deps, notifier) : []
    // A session with no evidence of its own is judged only against files the check read.
    if (named.length === 0 && state.premises.length === 0 && state.records.length === 0)
      return { ...none, told: settled }
    const exists = (path: string) => deps.fileExists(resolvePath(path, directory))
    const evidence = gatherEvidence(state, config, judge, exists, named)
    const files = new Map(named.map((read) => [read.premise.id, read.file]))
    health.model = evidence.model
    await cache.load(evidence.model)
    const run = newJudgeRun()
    const second = newJudgeRun()
    const ask = askFor(state, spend)
    const { unrelated, sent } = gateUnrelated(claims, evidence, config)
    if (unrelated.length) ask.count("unrelated", unrelated.length)
    await judgeInBatches(ask, sent, evidence, run)
    const results = await mapConcurrent(sent, config.judge.concurrency, (claim) =>
      settleClaim(ask, claim, evidence, run, second),
    )
    const told = noteJudgeHealth(notifier, state, evidence, run)
    // What the toast said, with the setting to check: `/ragfaith` is read long after the toast has gone.
    if (run.failure) {
      const at = deps.now()
      health.lastError = { message: describeOutage(run.failure, evidence.judge, evidence.model, at), at }
    }
    const judged = results
      .filter((result): result is ClaimResult => result !== undefined)
      .map((result) => namedSource(result, evidence, files))
    const readByCheck = named.map((read) => read.lines)
    // The model asked for second opinions on this reply's contradictions, for the report.
    const secondModel = config.checks.secondOpinion
      ? secondOpinionModel(evidence.model, evidence.active, evidence.judge)
      : undefined
    const all = [...settled, ...(told ? [told] : [])]
    return { results: judged, model: evidence.model, readByCheck, unrelated, spend, second: secondModel, told: all }
  }
}

export type ClaimJudge = ReturnType<typeof createClaimJudge>
