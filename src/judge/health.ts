// The judge's health as the user hears it: how one reply's calls went, and what a broken judge means, told while it lasts.

import { clockTime } from "../base/text.ts"
import type { JudgeSettings } from "../config/config.ts"
import type { Notifier } from "../config/effects.ts"
import type { SessionState } from "../state/session.ts"
import type { RawVerdict } from "../state/shapes.ts"
import type { JudgeError } from "./client.ts"

/** How the judge calls of one reply went: what the user hears about the judge's health follows from it. */
export interface JudgeRun {
  failure: JudgeError | undefined
  unjudged: number
  answered: number
  unreadable: number
  /** Verdicts a batched request gave, by cache key: each claim still goes through every check on its own. */
  batched: Map<string, RawVerdict>
}

export const newJudgeRun = (): JudgeRun => ({
  failure: undefined,
  unjudged: 0,
  answered: 0,
  unreadable: 0,
  batched: new Map(),
})

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

/** What to set when the opencode route finds no model to judge with, as `/ragfaith` says it in full. */
const NO_JUDGE_ADVICE =
  'Either name a small model in your opencode config ("small_model": "provider/model", one other than the ' +
  "agent's), or give the plugin a judge of its own: RFE_JUDGE_API_KEY with RFE_JUDGE_BASE_URL and " +
  "RFE_JUDGE_MAIN_MODEL (or SYNTHETIC_API_KEY, OPENROUTER_API_KEY)"

/** Why the opencode route has no judge, for `/ragfaith`: with no model but the agent's, every setting that gives one. */
export function describeNoJudge(problem: string): string {
  const plain = problem.replace(/^ragfaith:\s*/, "")
  return plain.includes("small_model")
    ? `nothing is judged: the agent's model is your only one. ${NO_JUDGE_ADVICE}`
    : plain
}

/**
 * A broken or unreadable judge is told while it lasts (at most every ten minutes); an answer clears it.
 * Returns what to tell under the reply, when it is to be told now: it concerns that reply, and a toast would
 * open over it.
 */
export function noteJudgeHealth(
  notifier: Notifier,
  state: SessionState,
  evidence: { judge: JudgeSettings; model: string },
  run: JudgeRun,
): string | undefined {
  const { failure } = run
  const { judge, model } = evidence
  if (failure) {
    const kind = failure.status === undefined ? "network" : `http-${failure.status}`
    notifier.log("warn", `ragfaith: ${failure.message}; ${run.unjudged} claim(s) of the last reply were not judged`, {
      sessionID: state.id,
      status: failure.status,
      retryable: failure.retryable,
    })
    return notifier.reportFailure(kind, (since) => describeOutage(failure, judge, model, since), "notice")
  }
  if (run.unreadable > 0 && run.unreadable === run.answered) {
    // Every answer came back without a verdict: likely a model that ignores the JSON instruction.
    notifier.log("warn", "ragfaith: the judge answered without a readable verdict", {
      model,
      unreadable: run.unreadable,
    })
    return notifier.reportFailure(
      "unreadable",
      `The judge ${model} answers without a verdict: check RFE_JUDGE_MAIN_MODEL.`,
      "notice",
    )
  }
  // The judge works again: a later failure deserves a telling of its own.
  if (run.answered > 0) notifier.clearFailures((kind) => kind === "network" || kind.startsWith("http-"))
  return undefined
}
