// The opencode 1 hooks, each behind one guard so nothing the plugin does can break the host.

import type { Hooks } from "@opencode-ai/plugin"
import { newCounters } from "../base/counters.ts"
import { describeError } from "../base/text.ts"
import { asRecord } from "../base/unknown.ts"
import { createCapture } from "../capture/capture.ts"
import { createDocPull } from "../capture/docpull.ts"
import { scrubError } from "../capture/redact/scrub.ts"
import type { Config } from "../config/config.ts"
import type { Deps, Notifier } from "../config/effects.ts"
import { createCommand } from "../feedback/command.ts"
import { createNoteSender } from "../feedback/note.ts"
import { createNotifier } from "../feedback/notifier.ts"
import { createReceipts } from "../feedback/receipt.ts"
import { createUndo } from "../feedback/undo.ts"
import { createVerdictCache } from "../judge/cache.ts"
import { createDisputeStore } from "../judge/disputes.ts"
import { createOpencodeRoute } from "../judge/route.ts"
import { createClaimJudge } from "../judge/settle.ts"
import { createSessionStore, type JudgeHealth, type PartContext } from "../state/session.ts"
import { createReplyJudge } from "../turn/reply.ts"
import { createEventTracker, createSessionFacts } from "./events.ts"

/**
 * Thrown from `command.execute.before` once `/ragfaith` is answered: a throw is the one way a plugin stops
 * opencode's turn for a command, so no model request follows. opencode 1.18.33 logs every such throw as
 * `level=ERROR message=failed` (only its own config errors and HTTP responses escape that), so the line says
 * plainly what it is.
 */
const COMMAND_HANDLED =
  "ragfaith answered /ragfaith itself, so opencode runs no model turn for it; a plugin can only end a command by throwing, which opencode logs as an error"

/** The name the log shows before the message: `NotAnError: ragfaith answered /ragfaith itself, …`. */
const COMMAND_HANDLED_NAME = "NotAnError"

/** The throw that ends opencode's handling of `/ragfaith` once the plugin has answered it. */
function commandHandled(): Error {
  const handled = new Error(COMMAND_HANDLED)
  handled.name = COMMAND_HANDLED_NAME
  return handled
}

/**
 * The hook boundary. A throw in opencode's hooks fails the tool or the turn, and a synchronous one in `event`
 * hangs the session: every hook body runs inside `guard`, which logs and swallows.
 */
function createGuards(notifier: Notifier, apiKey: string | undefined) {
  const fail = (name: string) => (error: unknown) =>
    notifier.log("error", `ragfaith: ${name} failed`, { error: scrubError(describeError(error), apiKey) })
  return {
    guard(name: string, work: () => unknown) {
      try {
        const result = work()
        if (result instanceof Promise) result.catch(fail(name))
      } catch (error) {
        fail(name)(error)
      }
    },
    /** The same for the one hook whose answer matters: the work is awaited, and a failure reads as false. */
    async guarded(name: string, work: () => Promise<boolean>) {
      try {
        return await work()
      } catch (error) {
        fail(name)(error)
        return false
      }
    },
  }
}

/**
 * Wires the parts into opencode's hooks. Each hook body runs inside `guard`, and none waits on the judge:
 * judging starts from the (not awaited) event hook and runs on its own.
 */
export function createHooks(host: { directory: string }, config: Config, warnings: readonly string[], deps: Deps) {
  const counters = newCounters()
  const notifier = createNotifier(config, warnings, deps)
  const store = createSessionStore()
  const health: JudgeHealth = { model: undefined, lastError: undefined }
  const ctx: PartContext = { config, deps, directory: host.directory, store, notifier, counters, health }
  const cache = createVerdictCache(config.cacheDir, deps, (message) => {
    notifier.log("warn", message)
    notifier.toast(message)
  })
  const capture = createCapture(ctx)
  const docPull = createDocPull(ctx)
  const route = createOpencodeRoute(ctx)
  const receipts = createReceipts(ctx)
  const disputes = createDisputeStore(config.cacheDir, host.directory, deps, (message) => {
    notifier.log("warn", message)
    notifier.toast(message)
  })
  const judge = createReplyJudge(ctx, createClaimJudge(ctx, cache, route), createNoteSender(ctx), receipts, disputes)
  const facts = createSessionFacts(ctx, capture, judge, route, createUndo(ctx))
  const tracker = createEventTracker(ctx, facts, route)
  const command = createCommand(ctx, disputes)
  const { guard, guarded } = createGuards(notifier, config.judge.apiKey)
  const hooks = {
    event: async (input) => guard("event", () => tracker.onEvent(asRecord(asRecord(input).event))),
    "chat.message": async (input, output) => guard("chat.message", () => tracker.onChatMessage(input, output)),
    "chat.params": async (input, output) => guard("chat.params", () => tracker.onChatParams(input, output)),
    config: async (cfg) =>
      guard("config", () => {
        const editable = cfg as unknown as Record<string, unknown>
        command.register(editable)
        if (config.judge.route === "opencode") route.configure(editable)
      }),
    // A throw is the one way to stop opencode's turn for a command: `/ragfaith` is answered with no model turn.
    "command.execute.before": async (input) => {
      if (await guarded("command.execute.before", () => command.run(input))) throw commandHandled()
    },
    "experimental.chat.system.transform": async (input, output) =>
      guard("experimental.chat.system.transform", () => route.system(input.sessionID, output)),
    "tool.execute.before": async (input, output) =>
      guard("tool.execute.before", () => docPull.beforeTool(input, output)),
    "tool.execute.after": async (input, output) => guard("tool.execute.after", () => capture.afterTool(input, output)),
    "experimental.text.complete": async (input, output) =>
      guard("experimental.text.complete", () => tracker.onTextComplete(input, output)),
    /**
     * `opencode run` disposes the instance right after the first idle. Judging that began at idle is given
     * a bounded time to finish so its findings reach the log; no note is injected, since nothing would
     * answer it. Then the run's findings go where CI reads them, and its exit code is set; opencode exits
     * with `process.exitCode` once the instance is disposed.
     */
    dispose: async () => {
      if (deps.mode !== "run") return
      try {
        facts.judgeAll()
        await judge.settle(config.flushTimeoutMs)
        await receipts.finish()
      } catch {
        // Shutdown goes on regardless.
      }
    },
  } satisfies Hooks
  return {
    hooks,
    parts: { facts, capture, docPull, route },
    guard,
    notifier,
    counters,
    sessions: store.sessions,
    pending: judge.pending,
    cache,
  }
}
