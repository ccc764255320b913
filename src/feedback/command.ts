// The /ragfaith command: the report of the last judged reply, and switching the check on and off.

import { clip, clockTime, describeError, plural, wrap } from "../base/text.ts"
import { asRecord, textOf } from "../base/unknown.ts"
import { normalizeForMatch } from "../claims/split.ts"
import type { Warned } from "../config/effects.ts"
import { type DisputeStore, statementId } from "../judge/disputes.ts"
import {
  type JudgeHealth,
  markReport,
  type PartContext,
  type ReplyReport,
  type SessionState,
} from "../state/session.ts"
import type { FlaggedClaim, Unrelated } from "../state/shapes.ts"
import { MESSAGE_WIDTH } from "./note.ts"

const COMMAND_NAME = "ragfaith"

/** `/ragfaith wrong [N]` marks a flag of the last report as wrong. */
const WRONG_WORD = "wrong"

/** `/ragfaith all` lists every statement; the report alone folds the ones that hold up into one line. */
const ALL_WORD = "all"

/** Statements marked ✗ or ? listed per reply before the rest are counted; `/ragfaith all` lists them all. */
export const REPORT_ITEMS = 20

/** How many of a reply's sentences that claim nothing the report names. */
const NOT_CLAIMS_SHOWN = 6

const MARKS = { unfaithful: "✗", unverifiable: "?", faithful: "✓" } as const

/** The reason a statement no source speaks to was not sent, as the report lists it. */
export const UNRELATED: Unrelated = "nothing in the sources speaks to it"

/** How the report is asked for: every statement (`all`), the marks a note corrects, the judge on the route. */
interface ReportOptions {
  all: boolean
  marks: string
  route: boolean
  /** Why nothing is judged at all, when the settings say so. */
  disabled: string | undefined
  /** The last toasts and notices, as they read. */
  warned: ReadonlyArray<Warned>
}

/** One judged statement of the report: a mark, the statement, and what decided it. */
function reportItem(item: FlaggedClaim): string[] {
  const mark = MARKS[item.verdict]
  const named = item.source ? `: ${item.source}` : item.verdict === "faithful" ? "" : ": no source"
  const where = item.via === "gate" ? ": stands word for word in a source" : named
  const says = item.quote ? `, which says "${clip(item.quote, 90)}"` : ""
  const how = {
    gate: "",
    records: " (from the session's tool calls)",
    cache: " (from the cache)",
    judge: "",
    "parse-fallback": " (the judge's answer was unreadable)",
  }[item.via]
  const disputed =
    item.disputed === "upheld"
      ? ` Disputed by the agent, citing ${item.cited ?? "its source"}, and upheld.`
      : item.disputed === "rejected"
        ? ` Disputed by the agent, citing ${item.cited ?? "its source"}; the judge still finds it wrong.`
        : item.disputed === "marked"
          ? " You marked it wrong (/ragfaith wrong), so it is not flagged."
          : ""
  const demoted =
    item.demoted === "unanchored"
      ? " Not flagged: the judge's quote is in no source."
      : item.demoted === "disagreed"
        ? " Not flagged: a second judge disagreed."
        : item.second === "silent"
          ? " The second judge did not answer; the verified quote decides."
          : ""
  // The quote says what the reason would repeat; the reason stands where there is no quote.
  const why =
    item.reason && item.verdict !== "faithful" && !item.quote ? ` (${item.reason.replace(/[.\s]+$/, "")})` : ""
  return [
    ...wrap(`"${clip(item.claim, 140)}"`, MESSAGE_WIDTH, "    ", `${mark} `),
    ...wrap(`${item.verdict}${where}${says}${why}${how}.${demoted}${disputed}`, MESSAGE_WIDTH, "    ", "  "),
  ]
}

/** The files the check read itself for a reply, because the reply named them and the agent had not read them. */
function readByCheckLines(report: ReplyReport): string[] {
  const files = report.readByCheck ?? []
  if (files.length === 0) return []
  const which = files.join("; ")
  const what = files.length === 1 ? "a file" : `${files.length} files`
  return wrap(`The check read ${what} the agent never read, to judge against: ${which}.`, MESSAGE_WIDTH)
}

/** The statements a reply's report marks ✗ or ?, in the order it lists them: ✗ first. */
function flagsListed(report: ReplyReport): FlaggedClaim[] {
  const flagged = report.items.filter((item) => item.verdict !== "faithful")
  return flagged.sort((a, b) => Number(a.verdict === "unverifiable") - Number(b.verdict === "unverifiable"))
}

/** The replies the report shows, in its order: the one that drew the last note, then the last one. */
function reportedReplies(state: SessionState): ReplyReport[] {
  const { report, flaggedReport } = state
  if (flaggedReport && flaggedReport !== report) return report ? [flaggedReport, report] : [flaggedReport]
  return report ? [report] : []
}

/** What became of a judged reply, in words that fit what was judged in it. */
function replyOutcome(report: ReplyReport, marks: string): string {
  const count = (verdict: FlaggedClaim["verdict"]) => report.items.filter((item) => item.verdict === verdict).length
  const [wrong, open, judged] = [count("unfaithful"), count("unverifiable"), report.items.length]
  if (report.outcome === "noted") return `A note asked the agent to correct what is marked ${marks}.`
  if (report.outcome === "reported") return "Notes are off (RFE_NUDGE_DEPTH=0): what is marked ✗ was only reported."
  if (report.outcome === "dropped") return "You sent a new message before the verdicts came, so they were dropped."
  if (report.outcome === "deleted") return "The session was deleted before the verdicts came."
  const marked = report.items.filter((item) => item.verdict === "unfaithful" && item.disputed === "marked").length
  if (wrong > 0 && marked === wrong) return "What is marked ✗ you marked wrong before, so it drew no note."
  if (wrong > 0) return "What is marked ✗ was flagged before in this turn, so it drew no second note."
  if (open > 0) return "No statement conflicts with the sources, so no note; ? marks what no source settles."
  return judged === 1 ? "Its 1 statement holds up." : `All ${plural(judged, "statement")} hold up.`
}

/** One group of sentences no request was spent on, under its heading, each with why. */
function notJudgedGroup(heading: string, notClaims: ReplyReport["notClaims"], unlisted = 0): string[] {
  if (notClaims.length === 0) return []
  const shown = notClaims.slice(0, NOT_CLAIMS_SHOWN)
  const more = notClaims.length - shown.length + unlisted
  return [
    heading,
    ...shown.map(({ text, why }) => clip(`- ${why}: "${text}"`, MESSAGE_WIDTH)),
    ...(more > 0 ? [`- and ${more} more`] : []),
  ]
}

/**
 * The sentences no request was spent on: those that state nothing a source could confirm, then the
 * statements that share no term with any source (normal mode sends them to no judge).
 */
function notClaimLines({ notClaims, unlisted }: Pick<ReplyReport, "notClaims" | "unlisted">): string[] {
  const unrelated = notClaims.filter((item) => item.why === UNRELATED)
  return [
    ...notJudgedGroup(
      "Not judged, as they state nothing to check:",
      notClaims.filter((item) => item.why !== UNRELATED),
      unlisted,
    ),
    ...notJudgedGroup("Not sent to the judge:", unrelated),
  ]
}

/** What judging costs, in requests and tokens: the reply's own figures when it has them, then the session's. */
function spendLine(report: ReplyReport | undefined, session: SessionState["counters"]): string[] {
  const cost = (c: Pick<SessionState["counters"], "requests" | "tokensIn" | "tokensOut">) =>
    `${plural(c.requests, "judge request")}, ${c.tokensIn.toLocaleString("en")} tokens in and ` +
    `${c.tokensOut.toLocaleString("en")} out`
  // Nothing billed yet (no judge, or none that answered): no cost line to read past.
  if (session.tokensIn + session.tokensOut === 0) return []
  const reply = report?.spend ? `this reply ${cost(report.spend)}; ` : ""
  return wrap(`Cost: ${reply}this session ${cost(session)}.`, MESSAGE_WIDTH)
}

/** What was left unjudged in a reply and why; empty when everything was judged. */
function unjudgedOf(report: ReplyReport): string[] {
  const left = [
    report.overCap ? `${plural(report.overCap, "statement")} over the limit of RFE_MAX_CLAIMS` : "",
    !report.unjudged
      ? ""
      : report.model
        ? `${plural(report.unjudged, "statement")} the judge did not answer for`
        : `${plural(report.unjudged, "statement")}, as there was no judge to ask (see Judge below)`,
  ].filter(Boolean)
  return left.length ? wrap(`Not judged: ${left.join("; ")}.`, MESSAGE_WIDTH) : []
}

/**
 * One judged reply of the report: a heading naming it, what became of it, the statements marked ✗ and ? (up
 * to REPORT_ITEMS), the ones that hold up folded into one line unless `all`, and what was left unjudged.
 * A reply of which nothing was judged says so, and why, instead of a verdict.
 */
function reportReply(report: ReplyReport, title: string, options: ReportOptions): string[] {
  const by = report.model ? ` by ${report.model}` : ""
  if (report.items.length === 0) {
    return [
      ...wrap(`Automatic check: ${title} was not judged (${clockTime(report.at)}).`, MESSAGE_WIDTH),
      ...unjudgedOf(report),
      ...notClaimLines(report),
    ]
  }
  const lines = [
    ...wrap(`Automatic check: ${title}, judged at ${clockTime(report.at)}${by}.`, MESSAGE_WIDTH),
    ...wrap(replyOutcome(report, options.marks), MESSAGE_WIDTH),
    ...readByCheckLines(report),
  ]
  const flagged = flagsListed(report)
  const shown = options.all ? flagged : flagged.slice(0, REPORT_ITEMS)
  for (const item of shown) lines.push(...reportItem(item))
  if (shown.length < flagged.length) {
    lines.push(`  and ${plural(flagged.length - shown.length, "more statement")} marked ✗ or ?.`)
  }
  const holding = report.items.filter((item) => item.verdict === "faithful")
  if (options.all) for (const item of holding) lines.push(...reportItem(item))
  else if (holding.length && flagged.length) {
    const hold = holding.length === 1 ? "holds" : "hold"
    lines.push(`✓ ${plural(holding.length, "more statement")} ${hold} up (/ragfaith all lists every one).`)
  }
  return [...lines, ...unjudgedOf(report), ...notClaimLines(report)]
}

/** The session's disputes as the totals count them; empty when there were none. */
function disputesOf(state: SessionState): string {
  const { upheld, rejected, marked } = state.disputes
  return [
    upheld ? `, ${plural(upheld, "dispute")} by the agent upheld` : "",
    rejected ? `, ${plural(rejected, "dispute")} by the agent rejected` : "",
    marked ? `, ${plural(marked, "flag")} marked wrong by you` : "",
  ].join("")
}

/** A message as a sentence of the report: no "ragfaith:" prefix, one full stop. */
const asSentence = (message: string) => message.replace(/^ragfaith:\s*/, "").replace(/[.\s]+$/, "")

/** Why no reply has a report yet, when the session says. */
function noReportYet(state: SessionState, health: JudgeHealth, disabled: string | undefined): string {
  const why = !state.judging
    ? ""
    : disabled
      ? ` ${asSentence(disabled).replace(/^./, (c) => c.toUpperCase())}.`
      : health.lastError
        ? ` The judge failed at ${clockTime(health.lastError.at)}: ${health.lastError.message}.`
        : state.premises.length === 0 && state.records.length === 0
          ? " A reply is judged once the agent has read a source or run a tool in this session."
          : ""
  return `Automatic check: no reply of this session has been judged yet.${why}`
}

/**
 * The judge and what went wrong with it, with the setting to check; then what the last toasts and notices
 * said, so a warning that showed for a few seconds, or scrolled away, can be read again. One that says what
 * the failure line says is not repeated.
 */
function judgeLines(health: JudgeHealth, options: ReportOptions): string[] {
  const failed = health.lastError
  const judge = health.model
    ? `${health.model}${options.route ? ", one of your opencode models" : ""}`
    : options.disabled
      ? "none, as the settings stand"
      : failed
        ? "none"
        : "none asked yet"
  const message = failed ? asSentence(failed.message) : ""
  const status = failed
    ? ` Last failure at ${clockTime(failed.at)}: ${message.replace(/^./, (c) => c.toLowerCase())}.`
    : ""
  const same = (text: string) => text.slice(0, 24).toLowerCase() === message.slice(0, 24).toLowerCase()
  const toasts = options.warned.filter((toast) => !same(asSentence(toast.message)))
  return [
    ...wrap(`Judge: ${judge}.${status}`, MESSAGE_WIDTH),
    ...toasts.flatMap((toast) =>
      wrap(
        `${toast.how === "notice" ? "Notice" : "Toast"} at ${clockTime(toast.at)}: ${asSentence(toast.message)}.`,
        MESSAGE_WIDTH,
        "  ",
      ),
    ),
  ]
}

/**
 * The report `/ragfaith` shows. The reply that drew the last note comes first (a person asks after seeing a
 * notice, by which time the correction is the last reply), then the reply judged after it; then the judge and
 * this session's totals.
 */
function renderReport(state: SessionState, health: JudgeHealth, options: ReportOptions): string {
  const { report, flaggedReport } = state
  const lines: string[] = []
  if (flaggedReport && flaggedReport !== report) {
    lines.push(...reportReply(flaggedReport, "the reply that drew the last note", options), "")
    if (report) lines.push(...reportReply(report, "the reply after it", options))
  } else if (report) lines.push(...reportReply(report, "the last reply", options))
  else lines.push(...wrap(noReportYet(state, health, options.disabled), MESSAGE_WIDTH))
  lines.push("", ...judgeLines(health, options), ...spendLine(report, state.counters))
  const t = state.counters
  const tokens = `${t.tokensIn.toLocaleString("en")} tokens in and ${t.tokensOut.toLocaleString("en")} out`
  const totals =
    t.statements === 0 && t.tokensIn === 0
      ? `This session: no statement judged, ${plural(t.notes, "note")} sent${disputesOf(state)}. `
      : `This session: ${plural(t.statements, "statement")} judged, ${plural(t.notes, "note")} sent${disputesOf(state)}, ` +
        `${tokens}, ${t.cacheHits.toLocaleString("en")} from the cache. `
  const wrongN = reportedReplies(state).some((reply) => flagsListed(reply).length > 0)
    ? " /ragfaith wrong N marks the Nth flag wrong."
    : ""
  const next = state.judging
    ? `/ragfaith all lists every statement; /ragfaith off stops checking.${wrongN}`
    : "Checking is off; /ragfaith on turns it back on."
  lines.push(...wrap(totals + next, MESSAGE_WIDTH))
  return lines.join("\n")
}

/**
 * `/ragfaith wrong [N]`: the user says a flag is wrong. Without N, the flags of the reply that drew the last
 * note; with N, the Nth statement marked ✗ or ? as the last report lists them. Each is never flagged again in
 * this project (across restarts with RFE_CACHE_DIR). The answer says what was marked, or why nothing was.
 */
async function markWrong(
  state: SessionState,
  which: string | undefined,
  { disputes, persistent }: { disputes: Pick<DisputeStore, "load" | "add">; persistent: boolean },
): Promise<string> {
  const listed = reportedReplies(state).flatMap(flagsListed)
  const noted = state.flaggedReport?.items.filter((item) => item.verdict !== "faithful") ?? []
  const n = which === undefined ? undefined : Number(which)
  if (listed.length === 0) {
    return "Automatic check: nothing is flagged in this session, so there is nothing to mark wrong."
  }
  if (n !== undefined && !(Number.isInteger(n) && n >= 1 && n <= listed.length)) {
    const range = listed.length === 1 ? "/ragfaith wrong 1" : `/ragfaith wrong 1 to ${listed.length}`
    return `Automatic check: the last report lists ${plural(listed.length, "flag")}; ${range} marks one wrong.`
  }
  const chosen = n === undefined ? (noted.length ? noted : listed.slice(0, 1)) : [listed[n - 1] as FlaggedClaim]
  await disputes.load()
  const written: Promise<void>[] = []
  for (const item of chosen) {
    if (item.disputed !== "marked") state.disputes.marked++
    item.disputed = "marked"
    written.push(disputes.add(item.key ?? statementId(normalizeForMatch(item.claim))))
  }
  // The answer says the mark lasts: it is on disk before the answer shows.
  await Promise.all(written)
  const names = chosen.map((item) => `"${clip(item.claim, 60)}"`).join(", ")
  const lasts = persistent ? "in this project" : "in this project while opencode runs (RFE_CACHE_DIR keeps it longer)"
  const it = chosen.length === 1 ? "It is" : "They are"
  return wrap(`Automatic check: marked wrong: ${names}. ${it} not flagged again ${lasts}.`, MESSAGE_WIDTH).join("\n")
}

/**
 * Owns `/ragfaith`: registered in the `config` hook, answered in `command.execute.before` without any model
 * turn. The answer goes in as an ignored part, which the user sees and the model never gets.
 */
export function createCommand(
  { config, deps, store, notifier, health }: PartContext,
  disputes: Pick<DisputeStore, "load" | "add">,
) {
  const options = (all: boolean): ReportOptions => ({
    all,
    marks: config.flagVerdicts.has("unverifiable") ? "✗ and ?" : "✗",
    route: config.judge.route === "opencode",
    disabled: config.judgeDisabled,
    warned: notifier.warned(),
  })
  return {
    register(cfg: Record<string, unknown>) {
      cfg.command = {
        ...asRecord(cfg.command),
        [COMMAND_NAME]: {
          template: "Show the ragfaith report.",
          description: "what ragfaith checked; /ragfaith all|on|off|wrong [N]",
        },
      }
    },
    /** Answers the command; true when it was `/ragfaith`, so the hook stops opencode's turn. */
    async run(input: { command?: unknown; sessionID?: unknown; arguments?: unknown }): Promise<boolean> {
      const sessionID = textOf(input.sessionID)
      if (input.command !== COMMAND_NAME || !sessionID) return false
      const state = store.touch(sessionID)
      const [word = "", ...rest] = (typeof input.arguments === "string" ? input.arguments : "")
        .trim()
        .toLowerCase()
        .split(/\s+/)
      if (word === "off" || word === "on") state.judging = word === "on"
      const text =
        word === "off"
          ? "Automatic check: off for this session. Replies are not checked; /ragfaith on turns it back on."
          : word === "on"
            ? "Automatic check: on for this session. Replies are checked again."
            : word === WRONG_WORD
              ? await markWrong(state, rest[0], { disputes, persistent: config.cacheDir !== undefined })
              : renderReport(state, health, options(word === ALL_WORD))
      // A visible message before the first prompt would keep opencode from titling the session: a toast then.
      if (!state.lastUser) {
        notifier.toast(word === "on" || word === "off" ? text : "Nothing is judged in this session yet.", "info")
        return true
      }
      const result = await deps.client.session.prompt({
        path: { id: sessionID },
        body: { noReply: true, parts: [{ type: "text", text, ignored: true }] },
      })
      const messageID = textOf(asRecord(asRecord(result?.data).info).id)
      // Undo knows the report by its id: what it copies back into the prompt box is the plugin's, not the user's.
      if (messageID) markReport(state, messageID)
      if (result?.error === undefined) return true
      notifier.log("warn", "ragfaith: the /ragfaith report could not be shown", {
        sessionID,
        error: describeError(result.error),
      })
      notifier.toast("The /ragfaith report could not be shown; the opencode log says why.")
      return true
    },
  }
}
