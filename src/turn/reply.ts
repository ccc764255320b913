// The reply judge: at idle, the last reply's claims judged and the flagged ones sent as one note.

import { type Counters, tallyInto } from "../base/counters.ts"
import { describeError } from "../base/text.ts"
import { filesNamedIn } from "../capture/named.ts"
import { scrubError } from "../capture/redact/scrub.ts"
import { splitClaims } from "../claims/split.ts"
import { type Config, VERDICTS } from "../config/config.ts"
import type { HostClient, Ledger, Notifier, TurnLedger } from "../config/effects.ts"
import { UNRELATED } from "../feedback/command.ts"
import { NOTE_CLAIM_CHARS, type NoteSender, type SentNote, sanitized, toFlaggedItems } from "../feedback/note.ts"
import { buildReceipt, type Receipts } from "../feedback/receipt.ts"
import { type DisputeStore, statementId } from "../judge/disputes.ts"
import type { ClaimJudge } from "../judge/settle.ts"
import type { PartContext, ReplyReport, ReplyState, SessionState } from "../state/session.ts"
import type { Claim, ClaimResult, FlaggedClaim, NotJudged } from "../state/shapes.ts"
import { joinCitations, type Kept, keptClaims } from "./kept.ts"

/** Subagent sessions are never judged; a session the plugin joined mid-way is looked up once. */
async function isChildSession(state: SessionState, client: HostClient): Promise<boolean> {
  if (state.parentKnown) return state.parentID !== undefined
  try {
    const result = await client.session.get({ path: { id: state.id } })
    if (!result || result.error) return true
    state.parentKnown = true
    state.parentID = result.data?.parentID || undefined
    return state.parentID !== undefined
  } catch {
    return true
  }
}

/**
 * The claims of this reply flagged for the first time in its turn, now marked so they never fire again; and
 * the turn, opened for a session the plugin joined mid-way so that the cascade stays bounded there too. A
 * statement the agent kept and the judge upheld, or one the user marked wrong, is never flagged.
 */
function newlyFlagged(
  state: SessionState,
  replyID: string,
  results: readonly ClaimResult[],
  config: Config,
  ledger: Ledger,
) {
  if (!ledger.turn(state.id)) ledger.openTurn(state.id, `joined:${replyID}`)
  const turn = ledger.turn(state.id) as TurnLedger
  const flagged = results.filter(
    (r) =>
      config.flagVerdicts.has(r.verdict) &&
      !turn.flaggedClaims.has(r.claim.key) &&
      !state.upheld.has(statementId(r.claim.key)) &&
      r.disputed !== "marked",
  )
  for (const result of flagged) turn.flaggedClaims.add(result.claim.key)
  return { flagged, turn }
}

/** The statements a note asked to correct, as the reply that drew it was reported. */
function flagsOf(state: SessionState, config: Config): FlaggedClaim[] {
  return (state.flaggedReport?.items ?? []).filter((item) => config.flagVerdicts.has(item.verdict))
}

/**
 * What the judge made of the statements the agent kept with a source, and of flags the user marked wrong.
 * A kept statement the judge now finds faithful is upheld: it, and the statement it keeps, are never flagged
 * again in the session, and the flag in the report of the reply that drew the note says so. One it still
 * flags is rejected, and goes into a note like any other flag.
 */
function settleDisputes(
  state: SessionState,
  results: ClaimResult[],
  kept: ReadonlyMap<Claim, Kept>,
  marked: (key: string) => boolean,
  config: Config,
) {
  for (const result of results) {
    const keeps = kept.get(result.claim)
    if (keeps) {
      const upheld = !config.flagVerdicts.has(result.verdict)
      result.disputed = upheld ? "upheld" : "rejected"
      result.cited = keeps.source
      keeps.flag.disputed = result.disputed
      keeps.flag.cited = keeps.source
      state.disputes[upheld ? "upheld" : "rejected"]++
      if (upheld) {
        for (const id of [statementId(result.claim.key), keeps.key, keeps.flag.key]) if (id) state.upheld.add(id)
      }
    } else if (config.flagVerdicts.has(result.verdict) && marked(statementId(result.claim.key))) {
      result.disputed = "marked"
    }
  }
}

/** Whether a reply may be judged at all: a usable judge, no subagent, depth left, evidence to judge against. */
async function mayJudge(state: SessionState, { config, deps, notifier }: PartContext): Promise<boolean> {
  if (!state.judging || config.judgeDisabled || (await isChildSession(state, deps.client))) return false
  if (deps.mode === "run" && config.judge.route === "opencode") {
    // `opencode run` answers a judge session with no model turn at all: nothing can be judged there.
    const message =
      "ragfaith: nothing was judged: `opencode run` cannot host the opencode judge route; use the TUI or " +
      "`opencode serve`, or set a judge key (RFE_JUDGE_API_KEY with RFE_JUDGE_BASE_URL, SYNTHETIC_API_KEY, OPENROUTER_API_KEY)"
    notifier.reportFailure("run-route", message, "log")
    notifier.printReport(`${message}\n`)
    return false
  }
  const turn = deps.ledger.turn(state.id)
  if (turn && turn.depth > 0 && turn.depth >= config.nudgeDepth) {
    notifier.log("debug", "ragfaith: cascade depth reached; reply not judged", {
      sessionID: state.id,
      depth: turn.depth,
    })
    return false
  }
  return state.premises.length > 0 || state.records.length > 0 || config.readNamed
}

/**
 * The claims worth judging. A session with no evidence of its own (no tool ran) has only the files the check
 * may read: a reply that names no file is not judged there; one that does is judged against those files.
 */
function claimsToJudge(state: SessionState, claims: readonly Claim[]): readonly Claim[] {
  if (state.premises.length > 0 || state.records.length > 0) return claims
  return claims.some((claim) => filesNamedIn(claim.raw ?? claim.text).length > 0) ? claims : []
}

/** The debug line of a judged reply: how many claims of each verdict, and the contradictions not let through. */
function logVerdicts(
  notifier: Notifier,
  sessionID: string,
  messageID: string,
  claims: number,
  results: readonly ClaimResult[],
) {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, results.filter((r) => r.verdict === v).length]))
  counts.unanchored = results.filter((r) => r.demoted === "unanchored").length
  counts.disagreed = results.filter((r) => r.demoted === "disagreed").length
  // A flag on one judge because the second did not answer: the log says so, apart from any disagreement.
  counts.secondSilent = results.filter((r) => r.second === "silent").length
  notifier.log("debug", "ragfaith: reply judged", { sessionID, messageID, claims, ...counts })
}

/**
 * What `/ragfaith` shows of a judged reply; the sentences that claim nothing, and the statements no source
 * speaks to, sanitised like the claims.
 */
function replyReport(
  at: number,
  judged: { model: string | undefined; results: readonly unknown[]; unrelated: readonly Claim[]; spend: Counters },
  items: FlaggedClaim[],
  split: { claims: readonly unknown[]; skipped: number; notClaims: readonly NotJudged[]; unlisted: number },
  config: Config,
): ReplyReport {
  const notJudged = [...split.notClaims, ...judged.unrelated.map((claim) => ({ text: claim.text, why: UNRELATED }))]
  const { requests, tokensIn, tokensOut } = judged.spend
  return {
    at,
    model: judged.model,
    items,
    notClaims: notJudged.map(({ text, why }) => ({
      text: sanitized(text, NOTE_CLAIM_CHARS, config.judge.apiKey),
      why,
    })),
    ...(split.unlisted ? { unlisted: split.unlisted } : {}),
    overCap: split.skipped,
    unjudged: split.claims.length - judged.results.length - judged.unrelated.length,
    spend: { requests, tokensIn, tokensOut },
    outcome: "silent",
  }
}

/**
 * Verdicts nobody wants any more: the session was deleted, or the user sent a new message before they came
 * (generation moved on). They are dropped, and the report says so.
 */
function isOutdated(
  state: SessionState,
  generation: number,
  report: ReplyReport,
  results: readonly ClaimResult[],
  { config, notifier, counters }: PartContext,
): boolean {
  if (state.deleted) {
    report.outcome = "deleted"
    notifier.log("debug", "ragfaith: the session was deleted; verdicts dropped", { sessionID: state.id })
    return true
  }
  if (state.generation === generation) return false
  tallyInto(counters, state.counters)("staleDrops")
  report.outcome = "dropped"
  notifier.log("info", "ragfaith: the user sent a new message before the verdicts came; they were dropped", {
    sessionID: state.id,
    flagged: results.filter((r) => config.flagVerdicts.has(r.verdict)).length,
  })
  return true
}

/** The claims of a reply the judge gave no verdict for, sanitised like the rest. */
function unansweredClaims(claims: readonly Claim[], results: readonly ClaimResult[], apiKey: string | undefined) {
  const judged = new Set(results.map((result) => result.claim.key))
  return claims
    .filter((claim) => !judged.has(claim.key))
    .map((claim) => sanitized(claim.text, NOTE_CLAIM_CHARS, apiKey))
}

/** What the flagged statements of a reply drew: the statements, and the note when one went in. */
interface FollowUp {
  flagged: ReadonlySet<FlaggedClaim>
  note: SentNote | undefined
}

/** Owns the turn: which finished replies are judged (once each, never a subagent's, within the depth), and what follows. */
/** A reply's statements to judge, the sentences that state nothing, and how many went over the cap. */
function claimsOfReply(state: SessionState, reply: ReplyState, segmenter: Intl.Segmenter, ctx: PartContext) {
  const { config, notifier } = ctx
  // A source cited after a statement's full stop belongs to the statement: the agent keeping it says so.
  const text = joinCitations([...reply.texts.values()].join("\n\n"))
  const split = splitClaims(text, config.maxClaims, segmenter)
  const { skipped, notClaims, unlisted } = split
  if (skipped > 0) {
    notifier.log("info", `ragfaith: ${skipped} claim(s) over RFE_MAX_CLAIMS were not judged`, { sessionID: state.id })
  }
  return { claims: claimsToJudge(state, split.claims), skipped, notClaims, unlisted }
}

/** The note (or report) for the claims of this reply flagged for the first time in its turn. */
function followUp(
  { config, deps }: PartContext,
  notes: NoteSender,
  judged: {
    state: SessionState
    reply: ReplyState
    results: readonly ClaimResult[]
    items: FlaggedClaim[]
    report: ReplyReport
  },
): FollowUp {
  const { state, reply, results, items, report } = judged
  const { flagged, turn } = newlyFlagged(state, reply.id, results, config, deps.ledger)
  if (flagged.length === 0) return { flagged: new Set(), note: undefined }
  const itemOf = new Map(results.map((result, i) => [result, items[i] as FlaggedClaim]))
  const flaggedItems = flagged.map((result) => itemOf.get(result) as FlaggedClaim)
  const sent = notes.send(state, flaggedItems, turn)
  report.outcome = sent.outcome
  state.flaggedReport = report
  return { flagged: new Set(flaggedItems), note: sent.note }
}

export function createReplyJudge(
  ctx: PartContext,
  judgeClaims: ClaimJudge,
  notes: NoteSender,
  receipts: Receipts,
  disputes: Pick<DisputeStore, "load" | "has">,
) {
  const { config, deps, notifier, counters } = ctx
  const segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" })
  const pending = new Set<Promise<void>>()

  /**
   * What the judge's trouble means for this reply (a refused key, no model to judge with), told under it while
   * the session waits for the user; a toast once the user has moved on, as the reply is no longer the last.
   */
  const tellUnderReply = async (state: SessionState, generation: number, message: string) => {
    if (state.deleted) return
    if (state.generation !== generation) return notifier.toast(message)
    await notes.notice(state, message)
  }

  const judgeReply = async (state: SessionState, reply: ReplyState) => {
    // The turn this reply answers, taken before anything is awaited: a prompt sent while the session is
    // looked up (a session joined mid-way, or one opencode 2 announced without saying its parent) is a new turn.
    const generation = state.generation
    if (!(await mayJudge(state, ctx))) return
    const { claims, skipped, notClaims, unlisted } = claimsOfReply(state, reply, segmenter, ctx)
    if (claims.length === 0) return
    const kept = keptClaims(claims, flagsOf(state, config))
    const judged = await judgeClaims(state, claims)
    for (const told of judged.told) await tellUnderReply(state, generation, told)
    const { results, model, readByCheck, second } = judged
    // No evidence of its own and no file the check could read: nothing was judged, and nothing is reported.
    if (!model && results.length === 0 && state.premises.length === 0 && state.records.length === 0) return
    // The marks are read only once a flag might need them: a faithful reply touches no file.
    if (results.some((result) => config.flagVerdicts.has(result.verdict))) await disputes.load()
    settleDisputes(state, results, kept, disputes.has, config)
    const items = toFlaggedItems(results, config.judge.apiKey)
    const report = replyReport(deps.now(), judged, items, { claims, skipped, notClaims, unlisted }, config)
    if (readByCheck.length) report.readByCheck = readByCheck
    state.report = report
    tallyInto(counters, state.counters)("statements", results.length)
    let sent: FollowUp = { flagged: new Set(), note: undefined }
    if (!isOutdated(state, generation, report, results, ctx)) {
      logVerdicts(notifier, state.id, reply.id, claims.length, results)
      sent = followUp(ctx, notes, { state, reply, results, items, report })
    }
    const unjudged = unansweredClaims(claims, results, config.judge.apiKey)
    const base = { sessionID: state.id, replyID: reply.id, mode: deps.mode, second, report, unjudged }
    await receipts.record(buildReceipt({ ...base, ...sent }))
  }

  return {
    /** Judges the session's finished reply, once per reply across every instance; runs on its own, never awaited. */
    onIdle(state: SessionState) {
      const reply = state.reply
      if (reply?.finish !== "stop" || !deps.ledger.claimReply(reply.id)) return
      // Toasts wait while the reply is judged: a note may follow, and nothing should cover it as it appears.
      const release = notifier.hold()
      const task = judgeReply(state, reply)
        .catch((error) =>
          notifier.log("error", "ragfaith: judging failed", {
            error: scrubError(describeError(error), config.judge.apiKey),
          }),
        )
        .finally(() => {
          release()
          pending.delete(task)
        })
      pending.add(task)
    },
    pending: pending as ReadonlySet<Promise<void>>,
    /** Waits for the judgments under way, at most `ms`, with a real timer cleared at once: it must not hold the exit. */
    async settle(ms: number) {
      if (pending.size === 0) return
      let timer: ReturnType<typeof setTimeout> | undefined
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms)
      })
      await Promise.race([Promise.allSettled([...pending]), deadline]).finally(() => clearTimeout(timer))
    },
  }
}

export type ReplyJudge = ReturnType<typeof createReplyJudge>
