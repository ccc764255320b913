// The note the agent gets and the notice the user sees, built from the flagged claims and sent once.
import { tallyInto } from "../base/counters.ts"
import { clip } from "../base/text.ts"
import { describeError, scrubError } from "../judge/client.ts"
import type { FlaggedClaim } from "../judge/verdict.ts"
import type { TurnLedger } from "../turn/ledger.ts"
import type { PartContext, SessionState } from "../turn/session.ts"
import { TOAST_CHARS } from "./notifier.ts"

/** How the agent's instruction begins: the plugin knows its own note by it, also one another instance sent. */
export const NOTE_TAG = "[ragfaith]"

/** How the notice the user sees beside a note begins. */
export const NOTICE_PREFIX = "ragfaith: "

export const NOTICE_CLAIM_CHARS = 70

export const NOTICE_QUOTE_CHARS = 60

/**
 * The line the user sees between the wrong reply and the correction: what was found, where, and what happens
 * next. It goes in as a visible part of the note, beside the agent's instruction.
 */
export function buildNotice(items: readonly FlaggedClaim[], judged: number): string {
  const of = `${items.length} of ${judged} statement${judged === 1 ? "" : "s"}`
  const [first] = items
  if (items.length === 1 && first) {
    const claim = `"${clip(first.claim, NOTICE_CLAIM_CHARS)}"`
    if (first.verdict !== "unfaithful") {
      return `${NOTICE_PREFIX}${of} has no source: ${claim}. Asking the agent to cite one or say where it comes from.`
    }
    const where = first.source ? ` with ${first.source}` : ""
    const says = first.quote ? ` (it says "${clip(first.quote, NOTICE_QUOTE_CHARS)}")` : ""
    return `${NOTICE_PREFIX}${of} conflicts${where}: ${claim}${says}. Asking the agent to correct it.`
  }
  const sources = [...new Set(items.flatMap((item) => (item.source ? [item.source] : [])))].slice(0, 3)
  const against = sources.length ? ` (${sources.join(", ")})` : ""
  const verb = items.every((item) => item.verdict === "unfaithful") ? "conflict with" : "are not backed by"
  return `${NOTICE_PREFIX}${of} ${verb} the sources${against}. Asking the agent to correct them; /ragfaith lists them.`
}

/** A toast about flagged statements: how many, the first one shortened to fit, then `tail`, in two lines. */
export function flaggedToast(items: readonly FlaggedClaim[], tail: string): string {
  const lead =
    items.length === 1 ? "1 statement looks unsupported: " : `${items.length} statements look unsupported, first: `
  const room = Math.max(12, TOAST_CHARS - lead.length - tail.length - 3)
  return `${lead}"${clip(items[0]?.claim ?? "", room)}" ${tail}`
}

/**
 * The one note that starts the correction turn. It speaks to the agent, not the user, and asks for the
 * corrected content only, so the user reads a better answer rather than a report about a check.
 * `askProvenance` adds strict mode's request: claims no source supports need a citation or a disclosure.
 */
export function buildNote(flagged: readonly FlaggedClaim[], askProvenance: boolean): string {
  const lines = flagged.map((item, index) => {
    const where = item.source ? ` [source: ${item.source}]` : " [no source supports it]"
    // The quote's own full stop stays inside it only once; the reason reads as a sentence of its own.
    const says = item.quote ? ` The source says: "${item.quote.replace(/[.;,\s]+$/, "")}".` : ""
    const reason = item.reason?.replace(/[.\s]+$/, "")
    const why = reason ? ` Reason: ${reason}.` : ""
    return `${index + 1}. "${item.claim}"${where}${says}${why}`
  })
  const unverifiable = flagged.some((item) => item.verdict === "unverifiable")
  return [
    `${NOTE_TAG} Automated source check. This note comes from a tool, not from the user.`,
    "These statements in your last reply are not supported by the sources you pulled in this session:",
    ...lines,
    "",
    "Re-check each one against those sources, then reply to the user with only the corrected content, written as " +
      "ordinary content. Do not mention this check, flags or verdicts; do not apologise or describe the process. " +
      "If the sources do not settle a statement, say plainly that it is unconfirmed instead of inventing a correction. " +
      "The user sees a one-line notice that this check ran; it needs no answer.",
    ...(askProvenance && unverifiable
      ? [
          "For each statement no source supports: either cite the source it rests on, or state plainly that it comes " +
            "from your own knowledge or is an inference from context.",
        ]
      : []),
  ].join("\n")
}

/** Owns what follows flagged claims: one note to the agent, or a report where no note could be answered. */
export function createNoteSender({ config, deps, notifier, counters }: PartContext) {
  /** Where no note can be answered or notes are off: the log, stderr in `opencode run`, a toast in the TUI. */
  const report = (state: SessionState, items: readonly FlaggedClaim[]) => {
    const summary = `ragfaith: ${items.length} statement(s) in the last reply are not supported by the sources`
    notifier.log("warn", summary, { sessionID: state.id, claims: items })
    const lines = `${summary}:\n${items.map((item) => `  - ${item.claim} [${item.verdict}]`).join("\n")}\n`
    if (deps.mode === "run") {
      // `opencode run` has no TUI: stderr is the one place a person running it will look.
      deps.writeStderr(`${lines}  details: ${notifier.logPlace}, or run with --print-logs\n`)
      return
    }
    notifier.printReport(lines)
    const toast = flaggedToast(items, "Notes are off; see /ragfaith.")
    notifier.toastOnce(state.toastKeys, `flagged:${state.lastUser?.id}`, toast)
  }

  /**
   * The note goes in as one user message with the agent and model of the user's last message: the agent's
   * instruction as a synthetic part, and the notice the user sees (and the timeline and export show) beside it.
   */
  const inject = async (state: SessionState, items: readonly FlaggedClaim[], judged: number) => {
    const text = buildNote(items, config.flagVerdicts.has("unverifiable"))
    const notice = buildNotice(items, judged)
    const user = state.lastUser
    tallyInto(counters, state.counters)("notes")
    let error: unknown
    try {
      const result = await deps.client.session.prompt({
        path: { id: state.id },
        body: {
          parts: [
            { type: "text", text, synthetic: true },
            { type: "text", text: notice },
          ],
          ...(user?.agent ? { agent: user.agent } : {}),
          ...(user?.model ? { model: user.model } : {}),
        },
      })
      error = result?.error
    } catch (thrown) {
      error = thrown ?? "unknown error"
    }
    if (error === undefined) return
    tallyInto(counters, state.counters)("injectionFailures")
    notifier.log("warn", "ragfaith: could not inject the correction note", {
      sessionID: state.id,
      error: scrubError(describeError(error), config.judge.apiKey),
      claims: items.map((item) => item.claim),
    })
    const failed = flaggedToast(items, "The agent was not told; see /ragfaith.")
    notifier.toastOnce(state.toastKeys, "inject-failed", failed)
  }

  return {
    /**
     * `opencode run` and RFE_NUDGE_DEPTH=0 only report; otherwise the note spends one step of the turn's depth.
     * Says which it was, for `/ragfaith`.
     */
    send(state: SessionState, items: readonly FlaggedClaim[], turn: TurnLedger, judged: number) {
      if (deps.mode === "run" || config.nudgeDepth === 0) {
        report(state, items)
        return "reported" as const
      }
      turn.depth++
      void inject(state, items, judged)
      return "noted" as const
    },
  }
}

export type NoteSender = ReturnType<typeof createNoteSender>
