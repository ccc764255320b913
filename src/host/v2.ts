// opencode 2's entry: its hooks and events told to the parts directly, its model calls as the route.
import { LIMITS, trimOldest } from "../base/bounds.ts"
import { asRecord, textOf } from "../base/unknown.ts"
import { type Env, PLUGIN_ID } from "../config/config.ts"
import type { Deps, HostClient } from "../config/effects.ts"
import { createHooks } from "./hooks.ts"
import { defaultDeps, readConfig } from "./v1.ts"

/** A registration opencode 2 hands back; disposed when the plugin unloads. */
interface V2Registration {
  dispose?(): unknown
}

type V2Callback = (event: Record<string, unknown>) => unknown

/** The part of opencode 2's plugin context ragfaith uses, as the public API describes it. */
interface V2Context {
  options?: unknown
  location?: { directory?: unknown; workspaceID?: unknown }
  tool: { hook(name: string, callback: V2Callback): Promise<V2Registration | undefined> }
  session: {
    hook(name: string, callback: V2Callback): Promise<V2Registration | undefined>
    synthetic(input: Record<string, unknown>): Promise<unknown>
    get(input: { sessionID: string }): Promise<unknown>
  }
  event: { subscribe(options?: { signal?: AbortSignal }): AsyncIterable<unknown> }
  generate?: { text(input: { prompt: string; model?: { providerID: string; id: string } }): Promise<unknown> }
  model?: { list(): Promise<unknown> }
}

/**
 * A real opencode 2 host. opencode 1.18.33 also calls `setup`, from an early opencode 2 core it embeds, with
 * a context for registrations only (no tools, sessions or events): that call must do nothing, or the plugin
 * would run twice.
 */
function isV2Context(ctx: unknown): ctx is V2Context {
  const { tool, session, event } = asRecord(ctx) as { tool?: unknown; session?: unknown; event?: unknown }
  return (
    typeof asRecord(tool).hook === "function" &&
    typeof asRecord(session).hook === "function" &&
    typeof asRecord(session).synthetic === "function" &&
    typeof asRecord(event).subscribe === "function"
  )
}

const V2_READ_HEAD_RE = /^Read file [^\n]*, lines (\d+)-(\d+)\n/

/** opencode 2's names for the tools the parts know by their opencode 1 names. */
const V2_TOOL_NAMES: Readonly<Record<string, string>> = { shell: "bash", subagent: "task" }

const v1ToolName = (name: string) => V2_TOOL_NAMES[name] ?? name

/** The text a tool gave the model in opencode 2: `result.content` parts, else `result.output`. */
function v2ToolOutput(result: Record<string, unknown>): string {
  if (typeof result.content === "string") return result.content
  if (Array.isArray(result.content)) {
    return result.content
      .map(asRecord)
      .flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : []))
      .join("\n")
  }
  return typeof result.output === "string" ? result.output : ""
}

/** A `Location.Ref` (`{ directory, workspaceID? }`), as opencode 2 stamps it on an event or a session. */
function locationKey(location: unknown): string | undefined {
  const ref = asRecord(location)
  const directory = textOf(ref.directory)
  return directory === undefined ? undefined : `${directory}\u0000${textOf(ref.workspaceID) ?? ""}`
}

/**
 * Which sessions are this instance's own. opencode 2 runs one plugin instance per location (project
 * directory and workspace) and fires its hooks only there, but its event stream is the server's, so it
 * may carry every open project's sessions. A session is the instance's own once a hook fires for it, or an
 * event for it carries this instance's location; an event that carries another location takes it away.
 * Events of a session that is not its own are left alone: no state, no judging, no note.
 */
export function createOwnership(here: unknown) {
  const home = locationKey(here)
  const own = new Set<string>()
  const claim = (sessionID: string) => {
    own.delete(sessionID)
    own.add(sessionID)
    trimOldest(own, LIMITS.sessions)
  }
  return {
    /** A hook fired for the session in this instance. */
    claim,
    /** Whether an event of the session is this instance's to read; its location, when it has one, decides. */
    admits(sessionID: string, location: unknown): boolean {
      const key = locationKey(location)
      if (key === undefined || home === undefined) return own.has(sessionID)
      if (key === home) claim(sessionID)
      else own.delete(sessionID)
      return key === home
    },
    owns: (sessionID: string) => own.has(sessionID),
  }
}

type Ownership = ReturnType<typeof createOwnership>

/** The plugin as the opencode 2 adapter drives it: the parts, and the guard every call runs inside. */
export type V2Plugin = Pick<ReturnType<typeof createHooks>, "parts" | "guard" | "notifier">

/**
 * A session's parent as `session.created` tells it: flat at the top (2.0.26), or inside `info` (older 2.x
 * builds send `{ sessionID, info: Session.Info }`). Undefined when neither says; the session is then asked
 * (`session.get`) before its first reply is judged, since a field that is absent cannot be told from one
 * that moved.
 */
function v2ParentID(data: Record<string, unknown>): string | undefined {
  return textOf(data.parentID) ?? textOf(asRecord(data.info).parentID)
}

/**
 * opencode 2's events the plugin reads, by name, each told to the facts. The payload sits under `data`; a
 * step names its assistant message, a reply's text comes whole at `session.text.ended`, and a turn ends with
 * `session.execution.succeeded` (opencode 1's idle).
 */
export function v2EventReaders({ facts }: V2Plugin["parts"]) {
  const step = (data: Record<string, unknown>, sessionID: string, fields: { finish?: string; model?: unknown }) => {
    const id = textOf(data.assistantMessageID)
    if (!id) return
    const model = asRecord(fields.model)
    const providerID = textOf(model.providerID)
    const modelID = textOf(model.id)
    facts.message({
      id,
      sessionID,
      role: "assistant",
      agent: textOf(data.agent),
      model: undefined,
      finish: fields.finish,
      activeModel: providerID && modelID ? `${providerID}/${modelID}` : undefined,
    })
  }
  return new Map<string, (data: Record<string, unknown>, sessionID: string) => void>([
    [
      "session.created",
      (data, id) => {
        const parentID = v2ParentID(data)
        const title = textOf(data.title) ?? textOf(asRecord(data.info).title)
        if (parentID) facts.session({ id, parentID, title })
      },
    ],
    ["session.deleted", (_data, sessionID) => facts.sessionDeleted(sessionID)],
    ["session.step.started", (data, sessionID) => step(data, sessionID, { model: data.model })],
    ["session.step.ended", (data, sessionID) => step(data, sessionID, { finish: textOf(data.finish) })],
    [
      "session.text.ended",
      (data, sessionID) => {
        const messageID = textOf(data.assistantMessageID)
        if (messageID && typeof data.text === "string")
          facts.replyText(sessionID, messageID, `${messageID}:${String(data.ordinal)}`, data.text)
      },
    ],
    ["session.execution.succeeded", (_data, sessionID) => facts.idle(sessionID)],
  ])
}

/** One event off opencode 2's stream: read when it is known and its session is this instance's own. */
export function readV2Event(
  raw: unknown,
  readers: ReturnType<typeof v2EventReaders>,
  ownership: Ownership,
  notifier: V2Plugin["notifier"],
) {
  const event = asRecord(raw)
  const read = typeof event.type === "string" ? readers.get(event.type) : undefined
  const data = asRecord(event.data)
  const sessionID = textOf(data.sessionID)
  if (!read || !sessionID || !ownership.admits(sessionID, event.location)) return
  notifier.showStartupNotice()
  read(data, sessionID)
}

/** opencode 2's models as opencode 1's provider list; all but the agent's provider only when the user names them. */
function v2Providers(list: unknown): { providers: unknown[] } {
  const models = Array.isArray(list)
    ? list
    : Array.isArray(asRecord(list).data)
      ? (asRecord(list).data as unknown[])
      : []
  const byProvider = new Map<string, Record<string, unknown>>()
  for (const raw of models) {
    const model = asRecord(raw)
    const providerID = textOf(model.providerID)
    const id = textOf(model.id)
    if (!providerID || !id || model.enabled === false) continue
    const [cost] = Array.isArray(model.cost) ? model.cost.map(asRecord) : []
    const entry = byProvider.get(providerID) ?? {}
    entry[id] = { cost: cost ? { input: cost.input, output: cost.output } : {} }
    byProvider.set(providerID, entry)
  }
  // opencode 2 does not say which providers the user set up: every one counts as found, not chosen.
  return { providers: [...byProvider].map(([id, entries]) => ({ id, source: "env", models: entries })) }
}

/** A call on the opencode 2 context as opencode 1's client answers: `{ data }` or `{ error }`, never a throw. */
async function v2Call<T>(call: () => Promise<T>): Promise<{ data?: T; error?: unknown }> {
  try {
    return { data: await call() }
  } catch (error) {
    return { error: error ?? "failed" }
  }
}

/**
 * HostClient on opencode 2. A note becomes `session.synthetic`: its text reaches the model, its description
 * is the notice row the user sees. opencode 2 gives server plugins no toasts and no log, so both go to the
 * server log through stderr. Judge sessions are not needed there (`generate.text` judges), so the session
 * calls they use answer with an error.
 */
function v2Client(ctx: V2Context, writeStderr: (text: string) => void): HostClient {
  const unsupported = async () => ({ error: "not available in opencode 2" })
  const generate = ctx.generate
  return {
    session: {
      async prompt({ path, body }) {
        if (body.noReply) return unsupported()
        const instruction = body.parts.filter((part) => part.synthetic).map((part) => part.text)
        const shown = body.parts.filter((part) => !part.synthetic && !part.ignored).map((part) => part.text)
        return v2Call(() =>
          ctx.session.synthetic({
            sessionID: path.id,
            text: (instruction.length ? instruction : shown).join("\n\n"),
            // opencode 2's notice row is one line: a notice broken for opencode 1's TUI is joined again
            ...(shown.length ? { description: shown.join(" ").replace(/\s*\n\s*/g, " ") } : {}),
            metadata: { source: PLUGIN_ID },
            // after the turn: a note that arrives while the user has started another turn waits for it to end
            delivery: "queue",
            resume: true,
          }),
        )
      },
      async get({ path }) {
        const result = await v2Call(() => ctx.session.get({ sessionID: path.id }))
        return result.error === undefined
          ? { data: { parentID: textOf(asRecord(result.data).parentID) } }
          : { error: result.error }
      },
      create: unsupported,
      abort: unsupported,
      delete: unsupported,
    },
    config: {
      providers: async () =>
        ctx.model ? v2Call(async () => v2Providers(await ctx.model?.list())) : { data: { providers: [] } },
    },
    tui: {
      async showToast({ body }) {
        writeStderr(`${PLUGIN_ID}: ${body.message}\n`)
        return {}
      },
    },
    app: {
      async log({ body }) {
        // Advice is logged and shown at once; here both land in the same log, so the shown line is enough.
        if (body.level === "debug" || body.level === "info") return {}
        const extra = body.extra ? ` ${JSON.stringify(body.extra)}` : ""
        writeStderr(`${body.level.toUpperCase()} ${body.message}${extra}\n`)
        return {}
      },
    },
    ...(generate && typeof generate.text === "function"
      ? {
          async generate({ model, prompt }) {
            const answer = asRecord(
              await generate.text({ prompt, model: { providerID: model.providerID, id: model.modelID } }),
            )
            return { text: typeof answer.text === "string" ? answer.text : "" }
          },
        }
      : {}),
  }
}

/** An opencode 2 hook callback: it claims the session and runs inside the guard, so nothing throws into opencode. */
function v2Hook(
  plugin: V2Plugin,
  ownership: Ownership,
  name: string,
  work: (event: Record<string, unknown>, sessionID: string) => unknown,
): V2Callback {
  return async (raw) =>
    plugin.guard(name, () => {
      const event = asRecord(raw)
      const sessionID = textOf(event.sessionID)
      if (!sessionID) return
      ownership.claim(sessionID)
      return work(event, sessionID)
    })
}

/** The plugin's hooks on opencode 2: its tool hooks, the user's prompts, each model request, and the events. */
async function registerV2(ctx: V2Context, plugin: V2Plugin, ownership: Ownership, signal: AbortSignal) {
  const { facts, docPull } = plugin.parts
  const hook = (name: string, work: (event: Record<string, unknown>, sessionID: string) => unknown) =>
    v2Hook(plugin, ownership, name, work)
  const registrations = await Promise.all([
    ctx.tool.hook(
      "execute.before",
      hook("execute.before", (event, sessionID) =>
        docPull.beforeTool({ tool: v1ToolName(textOf(event.tool) ?? ""), sessionID }, { args: asRecord(event.input) }),
      ),
    ),
    ctx.tool.hook(
      "execute.after",
      hook("execute.after", (event, sessionID) => afterV2Tool(event, sessionID, plugin.parts)),
    ),
    ctx.session.hook(
      "prompt",
      hook("prompt", (event, sessionID) => {
        const messageID = textOf(event.messageID)
        const text = asRecord(event.prompt).text
        plugin.notifier.showStartupNotice()
        if (!messageID || typeof text !== "string") return
        const parts = [{ text, synthetic: false, ignored: false }]
        facts.userPrompt({ sessionID, messageID, agent: textOf(event.agent), model: undefined, parts })
      }),
    ),
    ctx.session.hook(
      "context",
      hook("context", (event, sessionID) => {
        const model = asRecord(event.model)
        const id = textOf(model.id)
        const provider = textOf(model.providerID)
        facts.modelRequest(sessionID, event.agent, id && provider ? `${provider}/${id}` : id)
      }),
    ),
  ])
  // Not awaited: setup must return, or opencode 2 holds every prompt until it does.
  void pumpV2Events(ctx, plugin, ownership, signal)
  return registrations
}

/** A finished tool call: its output is captured, or its failure recorded (the call's own record says so). */
function afterV2Tool(event: Record<string, unknown>, sessionID: string, parts: V2Plugin["parts"]) {
  const name = textOf(event.tool)
  if (!name) return
  const tool = v1ToolName(name)
  const args = asRecord(event.input)
  if (event.status === "error") {
    const error = asRecord(event.error)
    return parts.facts.toolFailed(sessionID, { tool, input: args, error: textOf(error.message) })
  }
  const result = asRecord(event.result)
  const output = { title: "", output: v2ToolOutput(result), metadata: asRecord(result.metadata) }
  // opencode 2's read output opens with "Read file <path>, lines a-b": the lines a citation names, as
  // opencode 1 gives them in its metadata.
  const head = tool === "read" ? V2_READ_HEAD_RE.exec(output.output) : null
  if (head) {
    output.output = output.output.slice(head[0].length)
    output.metadata = { ...output.metadata, display: { lineStart: Number(head[1]), lineEnd: Number(head[2]) } }
  }
  parts.capture.afterTool({ tool, sessionID, args }, output)
}

/** The event stream, read until the plugin unloads; each event inside the guard. */
async function pumpV2Events(ctx: V2Context, plugin: V2Plugin, ownership: Ownership, signal: AbortSignal) {
  const readers = v2EventReaders(plugin.parts)
  try {
    for await (const event of ctx.event.subscribe({ signal }))
      plugin.guard("event", () => readV2Event(event, readers, ownership, plugin.notifier))
  } catch {
    // The stream ends when the plugin unloads; a broken one ends judging, never opencode.
  }
}

/**
 * The plugin on an opencode 2 host, with its environment and effects given (tests give their own). Nothing
 * when the context is not a real opencode 2 one; never a throw.
 */
export async function startV2(ctx: unknown, env: Env, makeDeps: (client: HostClient) => Deps) {
  try {
    if (!isV2Context(ctx)) return undefined
    const { config, warnings } = readConfig(asRecord(ctx.options), env)
    const deps: Deps = makeDeps(v2Client(ctx, (text) => deps.writeStderr(text)))
    const directory = textOf(asRecord(ctx.location).directory) ?? process.cwd()
    const built = createHooks({ directory }, config, warnings, deps)
    const stop = new AbortController()
    const registrations = await registerV2(ctx, built, createOwnership(ctx.location), stop.signal)
    const cleanup = async () => {
      stop.abort()
      await Promise.allSettled(registrations.map(async (registration) => registration?.dispose?.()))
      await built.hooks.dispose()
    }
    return { ...built, cleanup }
  } catch {
    // A plugin that cannot start must not stop opencode from starting.
    return undefined
  }
}

/** opencode 2's entry point. Returns the cleanup opencode 2 runs when it unloads the plugin. */
export async function setup(ctx: unknown): Promise<(() => Promise<void>) | undefined> {
  return (await startV2(ctx, process.env, defaultDeps))?.cleanup
}
