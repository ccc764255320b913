// The /ragfaith command: the report of the last judged reply, and switching the check on and off.
import { clip, clockTime, wrap } from "../base/text.ts"
import { asRecord, textOf } from "../base/unknown.ts"
import type { FlaggedClaim } from "../judge/verdict.ts"
import { type JudgeHealth, markReport, type PartContext, type ReplyReport, type SessionState } from "../turn/session.ts"

export const COMMAND_NAME = "ragfaith"

/** A user message wraps at the terminal width less 7 columns: 73 at 80. */
export const REPORT_WIDTH = 72

export const REPORT_ITEMS = 20

/** One judged statement of the report: a mark, the statement, and what decided it. */
export function reportItem(item: FlaggedClaim): string[] {
  const mark = item.verdict === "faithful" ? "✓" : item.verdict === "unfaithful" ? "✗" : "?"
  const where = item.via === "gate" ? "stands word for word in a source" : (item.source ?? "no source")
  const says = item.quote ? `, which says "${clip(item.quote, 90)}"` : ""
  const how = {
    gate: "",
    records: " (from the session's tool calls)",
    cache: " (from the cache)",
    judge: "",
    "parse-fallback": " (the judge's answer was unreadable)",
  }[item.via]
  const demoted =
    item.demoted === "unanchored"
      ? " Not flagged: the judge's quote is in no source."
      : item.demoted === "disagreed"
        ? " Not flagged: a second judge disagreed."
        : ""
  const why = item.reason && item.verdict !== "faithful" ? ` (${item.reason.replace(/[.\s]+$/, "")})` : ""
  return [
    ...wrap(`"${clip(item.claim, 140)}"`, REPORT_WIDTH, "    ", `${mark} `),
    ...wrap(`${item.verdict}: ${where}${says}${why}${how}.${demoted}`, REPORT_WIDTH, "    ", "  "),
  ]
}

export const OUTCOMES: Record<ReplyReport["outcome"], string> = {
  silent: "Nothing in it needed a note.",
  noted: "A note asked the agent to correct what is marked ✗.",
  reported: "Notes are off (RFE_NUDGE_DEPTH=0): what is marked ✗ was only reported.",
  dropped: "You sent a new message before the verdicts came, so they were dropped.",
  deleted: "The session was deleted before the verdicts came.",
}

/** One judged reply of the report: its statements, then what was left unjudged and why. */
export function reportReply(report: ReplyReport, title: string): string[] {
  const by = report.model ? ` by ${report.model}` : ""
  const lines = [
    ...wrap(`ragfaith: ${title}, judged at ${clockTime(report.at)}${by}.`, REPORT_WIDTH),
    ...wrap(OUTCOMES[report.outcome], REPORT_WIDTH),
  ]
  for (const item of report.items.slice(0, REPORT_ITEMS)) lines.push(...reportItem(item))
  const left = [
    report.items.length > REPORT_ITEMS ? `${report.items.length - REPORT_ITEMS} more statements (see the log)` : "",
    report.notClaims ? `${report.notClaims} sentence(s) that claim nothing (questions, offers, greetings)` : "",
    report.overCap ? `${report.overCap} statement(s) over the limit of RFE_MAX_CLAIMS` : "",
    report.unjudged ? `${report.unjudged} statement(s) the judge did not answer for` : "",
  ].filter(Boolean)
  if (left.length) lines.push(...wrap(`Not judged: ${left.join("; ")}.`, REPORT_WIDTH))
  return lines
}

/**
 * The report `/ragfaith` shows: the last judged reply statement by statement, the flagged reply it corrected
 * when there was one (a person asks after seeing a note, by which time the correction is the last reply),
 * the judge, and this session's totals.
 */
export function renderReport(state: SessionState, health: JudgeHealth, logPlace: string): string {
  const { report, flaggedReport } = state
  const lines: string[] = []
  if (!report) lines.push("ragfaith: no reply of this session has been judged yet.")
  else lines.push(...reportReply(report, "the last reply"))
  if (flaggedReport && flaggedReport !== report) {
    lines.push("", ...reportReply(flaggedReport, "before it, the reply that drew the last note"))
  }
  const failed = health.lastError
  const judge = health.model ?? "none asked yet"
  const status = failed ? ` Last failure at ${clockTime(failed.at)}: ${failed.message}.` : ""
  lines.push(...wrap(`Judge: ${judge}.${status} Details: ${logPlace}.`, REPORT_WIDTH))
  const t = state.counters
  const tokens = `${t.tokensIn.toLocaleString("en")} tokens in and ${t.tokensOut.toLocaleString("en")} out`
  lines.push(
    ...wrap(
      `This session: ${t.statements} statements judged, ${t.notes} note(s) sent, ${tokens}, ${t.cacheHits} from the cache. ` +
        (state.judging ? "/ragfaith off stops checking it." : "Checking is off; /ragfaith on turns it back on."),
      REPORT_WIDTH,
    ),
  )
  return lines.join("\n")
}

/**
 * Owns `/ragfaith`: registered in the `config` hook, answered in `command.execute.before` without any model
 * turn. The answer goes in as an ignored part, which the user sees and the model never gets.
 */
export function createCommand({ deps, store, notifier, health }: PartContext) {
  return {
    register(cfg: Record<string, unknown>) {
      cfg.command = {
        ...asRecord(cfg.command),
        [COMMAND_NAME]: {
          template: "Show the ragfaith report.",
          description: "what ragfaith checked; /ragfaith on|off",
        },
      }
    },
    /** Answers the command; true when it was `/ragfaith`, so the hook stops opencode's turn. */
    async run(input: { command?: unknown; sessionID?: unknown; arguments?: unknown }): Promise<boolean> {
      const sessionID = textOf(input.sessionID)
      if (input.command !== COMMAND_NAME || !sessionID) return false
      const state = store.touch(sessionID)
      const word = (typeof input.arguments === "string" ? input.arguments : "").trim().toLowerCase()
      if (word === "off" || word === "on") state.judging = word === "on"
      const text =
        word === "off"
          ? "ragfaith: off for this session. Replies are not checked; /ragfaith on turns it back on."
          : word === "on"
            ? "ragfaith: on for this session. Replies are checked again."
            : renderReport(state, health, notifier.logPlace)
      // A visible message before the first prompt would keep opencode from titling the session: a toast then.
      if (!state.lastUser) {
        notifier.toast(word ? text : "Nothing is judged in this session yet.", "info")
        return true
      }
      const result = await deps.client.session.prompt({
        path: { id: sessionID },
        body: { noReply: true, parts: [{ type: "text", text, ignored: true }] },
      })
      const messageID = textOf(asRecord(asRecord(result?.data).info).id)
      // Undo knows the report by its id: what it copies back into the prompt box is the plugin's, not the user's.
      if (messageID) markReport(state, messageID)
      if (result?.error !== undefined) notifier.toast("The /ragfaith report could not be shown; see the opencode log.")
      return true
    },
  }
}
