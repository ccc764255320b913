// The notifier: toasts and log lines for the user, deduplicated, repeated while a problem lasts, held for notices.
import { LIMITS, trimOldest } from "../base/bounds.ts"
import { clip, wrap } from "../base/text.ts"
import { type Config, PLUGIN_ID } from "../config/config.ts"
import type { Deps, Notifier, ToastVariant, TokenLogLine, Warned } from "../config/effects.ts"

const TOAST_DURATION_MS = 6_000

/** opencode's toast box word-wraps at 54 characters a line; two lines, so it never covers much of the transcript. */
const TOAST_LINE = 54

export const TOAST_CHARS = 2 * TOAST_LINE

/** How many of the last toasts `/ragfaith` repeats. */
const WARNED_KEPT = 3

/** A judge that stays broken is told again this often, not only once. */
const FAILURE_REPEAT_MS = 10 * 60_000

/** A message as a toast shows it: no "ragfaith:" prefix (the title says it), a capital, two lines at most. */
function toastText(message: string): string {
  const plain = message
    .replace(/^ragfaith:\s*/, "")
    .replace(/\s+/g, " ")
    .trim()
  const text = plain.charAt(0).toUpperCase() + plain.slice(1)
  // Cut where opencode's word wrap would start a third line, not at a character count.
  const [first = "", ...rest] = wrap(text, TOAST_LINE)
  if (rest.length <= 1) return text
  const [second = ""] = wrap(rest.join(" "), TOAST_LINE - 1)
  return `${first} ${second}…`
}

/** A message as a notice says it after "Automatic check:": no "ragfaith:" prefix, one line, a full stop. */
export function asNotice(message: string): string {
  const plain = message
    .replace(/^ragfaith:\s*/, "")
    .replace(/\s+/g, " ")
    .trim()
  return /[.!?]$/.test(plain) ? plain : `${plain}.`
}

/** A line in the opencode log; logging must never be the thing that breaks a hook. */
function logLine(deps: Deps, ...[level, message, extra]: Parameters<Notifier["log"]>) {
  try {
    void deps.client.app
      .log({ body: { service: PLUGIN_ID, level, message, ...(extra ? { extra } : {}) } })
      .catch(() => {})
  } catch {
    // Nothing to do: the log is the last place to tell.
  }
}

/** A toast in the TUI, titled with the plugin's name; a missing TUI is no reason to fail. */
function showToast(deps: Deps, message: string, variant: ToastVariant) {
  try {
    void deps.client.tui
      .showToast({ body: { title: PLUGIN_ID, message: toastText(message), variant, duration: TOAST_DURATION_MS } })
      .catch(() => {})
  } catch {
    // Nothing to do: the log has it.
  }
}

/** The last few toasts and notices as they read, once per text, newest last: a toast lasts seconds, `/ragfaith` is asked later. */
function createWarned(now: () => number) {
  const recent: Warned[] = []
  const keep = (message: string, how: Warned["how"]) => {
    // A toast as its two lines read; a notice whole, as the transcript shows it.
    const text = how === "toast" ? toastText(message) : asNotice(message)
    const old = recent.findIndex((entry) => entry.message === text)
    if (old >= 0) recent.splice(old, 1)
    recent.push({ message: text, at: now(), how })
    trimOldest(recent, WARNED_KEPT)
  }
  return { keep, recent: () => recent }
}

/** Owns what the user and the logs hear from the plugin: see `Notifier` for each way it tells. */
export function createNotifier(config: Config, warnings: readonly string[], deps: Deps): Notifier {
  /** Failures still going on: when each began and when it was last told. */
  const outages = new Map<string, { since: number; toldAt: number }>()
  const told = new Set<string>()
  let startup = [...(config.judgeDisabled ? [config.judgeDisabled] : []), ...warnings]
  const log: Notifier["log"] = (...line) => logLine(deps, ...line)
  const held = createToastHold((message, variant) => showToast(deps, message, variant), deps)
  const { keep, recent } = createWarned(deps.now)
  const toast: Notifier["toast"] = (message, variant = "warning") => {
    keep(message, "toast")
    held.toast(message, variant)
  }
  const reportFailure: Notifier["reportFailure"] = (kind, render, how = "toast") => {
    const now = deps.now()
    const outage = outages.get(kind) ?? { since: now, toldAt: Number.NEGATIVE_INFINITY }
    outages.set(kind, outage)
    if (now - outage.toldAt < FAILURE_REPEAT_MS) return undefined
    outage.toldAt = now
    const message = typeof render === "string" ? render : render(outage.since)
    if (how === "toast") toast(message)
    else if (how === "notice") keep(message, "notice")
    else log("warn", message)
    return message
  }
  const sink = tokenSink(config.judgeLog, deps, (error) =>
    reportFailure("judge-log", `ragfaith: cannot write RFE_JUDGE_LOG (${String(error)})`, "log"),
  )
  for (const message of startup) log("warn", message)
  return {
    log,
    toast,
    toastOnce(budget, key, message, variant = "warning") {
      if (spendToast(budget, key, variant)) toast(message, variant)
    },
    reportFailure,
    dismissToast() {
      try {
        void deps.client.tui.showToast({ body: { message: " ", variant: "info", duration: 1 } }).catch(() => {})
      } catch {
        // A missing TUI has no toast to take off.
      }
    },
    tellOnce(key, message, how = "toast") {
      if (told.has(key)) return undefined
      told.add(key)
      log("info", message)
      if (how === "toast") toast(message, "info")
      else keep(message, "notice")
      return message
    },
    hold: held.hold,
    holdFor(ms) {
      const release = held.hold()
      void deps.sleep(ms).then(release, release)
    },
    clearFailures(healed) {
      for (const kind of [...outages.keys()]) if (healed(kind)) outages.delete(kind)
    },
    showStartupNotice() {
      if (startup.length === 0) return
      const [first = "", ...rest] = startup
      startup = []
      // opencode shows one toast at a time: one toast, the most severe notice, and where the others are.
      toast(
        rest.length ? `${clip(toastText(first), TOAST_CHARS - 40)} (+${rest.length} more in the opencode log)` : first,
      )
    },
    tokenLog: sink.tokens,
    printReport: sink.report,
    logPlace: `the opencode log (${deps.logDir})`,
    warned: recent,
  }
}

/** At most this many toasts wait behind a hold; older ones give way. */
const HELD_TOASTS = 3

/**
 * No hold keeps a toast back longer than this. A correction turn that never ends (a hung model, a provider that
 * stops answering) would otherwise silence every warning for the rest of the session; by now the notice it
 * guarded has long been read.
 */
export const HOLD_LIMIT_MS = 120_000

/**
 * Toasts held while something the user must read has just appeared, shown together once nothing holds them.
 * opencode shows one toast at a time and a new one replaces the last at once, so advice goes first and a
 * warning last: the warning is the one that stays. The same text waits once. A hold older than HOLD_LIMIT_MS
 * holds nothing: a toast put in waiting, and a hold begun while toasts wait, each set one timer for that
 * limit, after which the clock decides what still holds.
 */
export function createToastHold(
  show: (message: string, variant: ToastVariant) => void,
  clock: Pick<Deps, "now" | "sleep">,
) {
  /** When each hold still in force began. */
  const holds = new Map<symbol, number>()
  const waiting: Array<{ message: string; variant: ToastVariant }> = []
  const holding = () => {
    const now = clock.now()
    for (const [hold, since] of holds) if (now - since >= HOLD_LIMIT_MS) holds.delete(hold)
    return holds.size > 0
  }
  const flush = () => {
    const queue = [...waiting.filter((t) => t.variant === "info"), ...waiting.filter((t) => t.variant !== "info")]
    waiting.length = 0
    for (const next of queue) show(next.message, next.variant)
  }
  const flushIfFree = () => {
    if (!holding()) flush()
  }
  const recheckAtLimit = () => void clock.sleep(HOLD_LIMIT_MS).then(flushIfFree, flushIfFree)
  return {
    toast(message: string, variant: ToastVariant) {
      if (!holding()) {
        flush()
        return show(message, variant)
      }
      if (waiting.some((t) => t.message === message)) return
      waiting.push({ message, variant })
      trimOldest(waiting, HELD_TOASTS)
      recheckAtLimit()
    },
    hold() {
      const hold = Symbol("hold")
      holds.set(hold, clock.now())
      if (waiting.length) recheckAtLimit()
      return () => {
        holds.delete(hold)
        flushIfFree()
      }
    },
  }
}

/** Whether a session's toast budget allows one more toast under `key`; spends it when it does. */
function spendToast(budget: Set<string>, key: string, variant: ToastVariant): boolean {
  // Advice (doc-pull) has a budget of its own, so it can never crowd out a warning that matters more.
  const slot = variant === "info" ? `info:${key}` : key
  const advice = slot.startsWith("info:")
  const spent = [...budget].filter((old) => old.startsWith("info:") === advice).length
  if (budget.has(slot) || spent >= LIMITS.toastsPerSession) return false
  budget.add(slot)
  return true
}

/** Where RFE_JUDGE_LOG goes, decided once: nowhere, stderr, or appended to a file. */
function tokenSink(judgeLog: string | undefined, deps: Deps, onWriteError: (error: unknown) => void) {
  const toStderr = judgeLog?.toLowerCase() === "stderr"
  const write = (text: string) => {
    if (!judgeLog) return
    if (toStderr) deps.writeStderr(text)
    else deps.appendText(judgeLog, text).catch(onWriteError)
  }
  return {
    tokens: (line: TokenLogLine) => write(`${JSON.stringify(line)}\n`),
    report: (text: string) => {
      if (toStderr) deps.writeStderr(text)
    },
  }
}
