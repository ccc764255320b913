/**
 * A fake opencode 2 host, built from the public opencode 2 plugin API (2.0.26) as read, not run: no 2.x CLI
 * can be installed here. It hands the plugin a `setup` context with the parts ragfaith uses (tool hooks,
 * session hooks, `session.synthetic`, `session.get`, the event stream, `generate.text`, `model.list`) and
 * plays turns in opencode 2's order: the `prompt` hook for a user's prompt, then per step
 * `session.step.started`, the `context` hook, the tool hooks, `session.text.ended` and `session.step.ended`,
 * and `session.execution.succeeded` at the end of the turn. Event payloads sit under `data`.
 * A note (`session.synthetic` with `resume`) starts a model turn with no `prompt` hook, as opencode 2 does.
 *
 * Where opencode 2 runs it: one plugin instance per location (project directory), whose hooks fire only for
 * that location's sessions, while the event stream is the server's and carries every project's sessions,
 * each event stamped with its session's `location` (older builds may leave the stamp out: `locate: false`).
 * A session made with `createSession(parent, { directory })` elsewhere is such a neighbour: its events reach
 * the plugin, its hooks do not. `session.created` is flat (2.0.26) or, with `created: "info"`, the older
 * `{ sessionID, info: Session.Info }`.
 */

import type { Deps, HostClient } from "../../src/config/effects.ts"
import { startV2 } from "../../src/host/v2.ts"
import { createLedger } from "../../src/state/ledger.ts"

type Callback = (event: unknown) => unknown

let counter = 0
const id = (prefix: string) => `${prefix}${Date.now().toString(36)}${(++counter).toString().padStart(5, "0")}`

export interface SyntheticCall {
  sessionID: string
  text: string
  description: string | undefined
  metadata: Record<string, unknown> | undefined
  delivery: unknown
  resume: unknown
}

export interface V2ModelInfo {
  id: string
  providerID: string
  enabled?: boolean
  cost?: Array<{ input: number; output: number }>
}

export interface V2HostOptions {
  env?: Record<string, string | undefined>
  options?: unknown
  /** The agent's reply to a note; undefined: the turn ends with no reply. */
  correct?: (note: string, round: number) => string | undefined
  /** The model catalog `model.list()` returns; `generate.text` posts to `generateURL` (the scripted judge). */
  models?: V2ModelInfo[]
  generateURL?: string
  deps?: Partial<Deps>
  /** How `session.created` is announced: flat (2.0.26, the default) or older 2.x's `{ sessionID, info }`. */
  created?: "flat" | "info"
  /** Whether events carry their session's location (default true). */
  locate?: boolean
}

/** The plugin's location in the fake host; other projects' sessions live elsewhere. */
export const HOME = "/work/project"

/** The async iterable `event.subscribe` returns, fed by `emit`; `drained` resolves once the plugin took all. */
function eventStream() {
  const queue: unknown[] = []
  let waiting: ((result: IteratorResult<unknown>) => void) | undefined
  let idle: Array<() => void> = []
  let closed = false
  const settleIdle = () => {
    for (const done of idle) done()
    idle = []
  }
  return {
    subscribers: 0,
    emit(event: unknown) {
      if (waiting) {
        const take = waiting
        waiting = undefined
        take({ value: event, done: false })
      } else queue.push(event)
    },
    close() {
      closed = true
      waiting?.({ value: undefined, done: true })
      waiting = undefined
      settleIdle()
    },
    drained: () =>
      closed || (waiting && queue.length === 0) ? Promise.resolve() : new Promise<void>((r) => idle.push(r)),
    iterable(signal?: AbortSignal): AsyncIterable<unknown> {
      signal?.addEventListener("abort", () => this.close())
      return {
        [Symbol.asyncIterator]: () => ({
          next: () => {
            if (queue.length) return Promise.resolve({ value: queue.shift(), done: false })
            if (closed) return Promise.resolve({ value: undefined, done: true })
            const next = new Promise<IteratorResult<unknown>>((resolve) => {
              waiting = resolve
            })
            settleIdle()
            return next
          },
          return: () => {
            closed = true
            return Promise.resolve({ value: undefined, done: true })
          },
        }),
      }
    },
  }
}

export async function createV2Host(opts: V2HostOptions = {}) {
  const events = eventStream()
  const toolHooks = new Map<string, Callback[]>()
  const sessionHooks = new Map<string, Callback[]>()
  const sessions = new Map<string, { parentID: string | undefined; directory: string }>()
  const gets: string[] = []
  const synthetics: SyntheticCall[] = []
  const generated: Array<{ prompt: string; model?: unknown }> = []
  const stderr: string[] = []
  const turns: Promise<void>[] = []
  let disposed = 0
  let notes = 0

  const register = (table: Map<string, Callback[]>) => async (name: string, callback: Callback) => {
    table.set(name, [...(table.get(name) ?? []), callback])
    return {
      dispose: async () => {
        disposed++
        table.set(
          name,
          (table.get(name) ?? []).filter((c) => c !== callback),
        )
      },
    }
  }
  const locationOf = (sessionID: unknown) => ({ directory: sessions.get(String(sessionID))?.directory ?? HOME })
  const emit = (type: string, data: Record<string, unknown>) =>
    events.emit({
      id: id("evt_"),
      type,
      created: Date.now(),
      ...(opts.locate === false ? {} : { location: locationOf(data.sessionID) }),
      data,
    })
  /** Hooks are per location: another project's session never reaches this instance's hooks. */
  const fire = async (
    table: Map<string, Callback[]>,
    name: string,
    event: { sessionID: string; [key: string]: unknown },
  ) => {
    if (locationOf(event.sessionID).directory !== HOME) return
    for (const callback of table.get(name) ?? []) await callback(event)
  }

  /** One model step: its events and the `context` hook, then its tools or its text. */
  const step = async (sessionID: string, body: { tools?: ToolRun[]; text?: string }) => {
    const assistantMessageID = id("msg_")
    const model = { providerID: "mock", id: "scripted" }
    emit("session.step.started", { sessionID, assistantMessageID, agent: "build", model, started: Date.now() })
    await fire(sessionHooks, "context", {
      sessionID,
      agent: "build",
      model,
      system: [],
      messages: [],
      options: {},
      tools: {},
    })
    for (const [index, run] of (body.tools ?? []).entries()) await runTool(sessionID, assistantMessageID, index, run)
    if (body.text !== undefined)
      emit("session.text.ended", { sessionID, assistantMessageID, ordinal: 0, text: body.text })
    const finish = body.tools?.length ? "tool-calls" : "stop"
    emit("session.step.ended", { sessionID, assistantMessageID, finish, cost: 0, tokens: { input: 10, output: 10 } })
    await events.drained()
  }

  const runTool = async (sessionID: string, messageID: string, index: number, run: ToolRun) => {
    const base = {
      tool: run.tool,
      sessionID,
      agent: "build",
      messageID,
      id: `call_${index}_${messageID}`,
      input: run.input,
    }
    const before = { ...base }
    await fire(toolHooks, "execute.before", before)
    const after =
      "error" in run
        ? { ...base, status: "error", error: { message: run.error } }
        : {
            ...base,
            status: "completed",
            result: { content: run.content, output: run.content, metadata: run.metadata ?? {} },
          }
    await fire(toolHooks, "execute.after", after)
  }

  const ctx = {
    options: opts.options ?? {},
    app: { name: "opencode", version: "2.0.26", channel: "test" },
    location: { directory: HOME, project: { id: "prj_test", directory: HOME } },
    tool: { hook: register(toolHooks) },
    session: {
      hook: register(sessionHooks),
      async get({ sessionID }: { sessionID: string }) {
        gets.push(sessionID)
        const session = sessions.get(sessionID)
        if (!session) throw new Error(`Session not found: ${sessionID}`)
        const { parentID, directory } = session
        return { id: sessionID, ...(parentID ? { parentID } : {}), location: { directory }, title: "s" }
      },
      async synthetic(input: Record<string, unknown>) {
        const call: SyntheticCall = {
          sessionID: String(input.sessionID),
          text: String(input.text),
          description: typeof input.description === "string" ? input.description : undefined,
          metadata: input.metadata as Record<string, unknown> | undefined,
          delivery: input.delivery,
          resume: input.resume,
        }
        synthetics.push(call)
        const reply = input.resume === false ? undefined : opts.correct?.(call.text, ++notes)
        // resume: opencode 2 wakes the session and runs a turn on the note; no `prompt` hook fires for it
        if (reply !== undefined) turns.push(modelTurn(call.sessionID, [{ text: reply }]))
        return {
          id: id("msg_"),
          sessionID: call.sessionID,
          type: "synthetic",
          payload: { text: call.text },
          delivery: "queue",
        }
      },
    },
    event: {
      subscribe(options?: { signal?: AbortSignal }) {
        events.subscribers++
        return events.iterable(options?.signal)
      },
    },
    generate: {
      async text(input: { prompt: string; model?: { providerID: string; id: string } }) {
        generated.push(input)
        if (!opts.generateURL) throw new Error("Generation credentials are unavailable")
        const model = input.model ? `${input.model.providerID}/${input.model.id}` : "default"
        const res = await fetch(`${opts.generateURL}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model, messages: [{ role: "user", content: input.prompt }] }),
        })
        if (!res.ok) throw Object.assign(new Error(`provider answered ${res.status}`), { statusCode: res.status })
        const body = (await res.json()) as { choices: Array<{ message: { content: string } }> }
        return { text: body.choices[0]?.message.content ?? "" }
      },
    },
    model: { list: async () => opts.models ?? [] },
  }

  const modelTurn = async (sessionID: string, steps: Array<{ tools?: ToolRun[]; text?: string }>) => {
    emit("session.execution.started", { sessionID })
    for (const body of steps) await step(sessionID, body)
    emit("session.execution.succeeded", { sessionID })
    await events.drained()
  }

  const started = await startV2(ctx, opts.env ?? {}, (client: HostClient) => ({
    client,
    fetch: (url, init) => fetch(url, init),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 5))),
    random: () => 0.5,
    readText: async () => undefined,
    realPath: async () => undefined,
    readHead: async () => undefined,
    appendText: async () => {},
    ensureDir: async () => {},
    fileExists: () => false,
    writeStderr: (text) => void stderr.push(text),
    mode: "serve",
    logDir: "~/.local/share/opencode/log",
    ledger: createLedger(),
    failExit: () => {},
    ...opts.deps,
  }))

  return {
    ctx,
    started,
    synthetics,
    generated,
    stderr,
    toolHooks,
    sessionHooks,
    /** The sessions `session.get` was asked about, in order. */
    gets,
    subscribers: () => events.subscribers,
    disposed: () => disposed,
    emit,
    /** An event put on the stream as it is, envelope or not. */
    raw: (event: unknown) => events.emit(event),
    drained: events.drained,
    /** A session in this project, or in another one (`directory`), announced on the stream. */
    async createSession(parentID?: string, where: { directory?: string } = {}) {
      const sessionID = id("ses_")
      const directory = where.directory ?? HOME
      sessions.set(sessionID, { parentID, directory })
      const info = { id: sessionID, parentID, projectID: "prj_test", title: "s", location: { directory } }
      emit(
        "session.created",
        opts.created === "info"
          ? { sessionID, info }
          : { sessionID, projectID: "prj_test", parentID, slug: "s", version: "2.0.26" },
      )
      await events.drained()
      return sessionID
    },
    /** A real user's turn: the `prompt` hook, then the model's steps (tools first, the reply last). */
    async turn(sessionID: string, prompt: string, reply: string, tools: ToolRun[] = []) {
      await fire(sessionHooks, "prompt", {
        sessionID,
        messageID: id("msg_"),
        prompt: { text: prompt },
        delivery: "steer",
      })
      await modelTurn(sessionID, tools.length ? [{ tools }, { text: reply }] : [{ text: reply }])
    },
    /** Waits for the judgments under way and the turns notes started. */
    async settle() {
      for (let round = 0; round < 20; round++) {
        await Promise.allSettled([...(started?.pending ?? [])])
        await Promise.allSettled(turns.splice(0))
        await events.drained()
        if ((started?.pending.size ?? 0) === 0 && turns.length === 0) return
      }
    },
  }
}

export type ToolRun =
  | { tool: string; input: Record<string, unknown>; content: string; metadata?: Record<string, unknown> }
  | { tool: string; input: Record<string, unknown>; error: string }

/** opencode 2's read tool: input `{ path }`, the model gets "Read file …, lines a-b" and numbered lines. */
export function v2Read(path: string, text: string): ToolRun {
  const lines = text.replace(/\n$/, "").split("\n")
  const content = [`Read file ${path}, lines 1-${lines.length}`, ...lines.map((line, i) => `${i + 1}: ${line}`)]
  return { tool: "read", input: { path }, content: content.join("\n"), metadata: { truncated: false } }
}
