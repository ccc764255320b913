// opencode 2's entry: its hooks and events translated into the parts, its model calls as the route.
import { asRecord, textOf } from "../base/unknown.ts"
import { type Env, PLUGIN_ID } from "../config/config.ts"
import type { Deps, HostClient } from "../config/effects.ts"
import { createHooks } from "./hooks.ts"
import { defaultDeps, readConfig } from "./v1.ts"

/** A registration opencode 2 hands back; disposed when the plugin unloads. */
export interface V2Registration {
  dispose?(): unknown
}

export type V2Callback = (event: Record<string, unknown>) => unknown

/** The part of opencode 2's plugin context ragfaith uses, as the public API describes it. */
export interface V2Context {
  options?: unknown
  location?: { directory?: unknown }
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
export function isV2Context(ctx: unknown): ctx is V2Context {
  const { tool, session, event } = asRecord(ctx) as { tool?: unknown; session?: unknown; event?: unknown }
  return (
    typeof asRecord(tool).hook === "function" &&
    typeof asRecord(session).hook === "function" &&
    typeof asRecord(session).synthetic === "function" &&
    typeof asRecord(event).subscribe === "function"
  )
}

export const V2_READ_HEAD_RE = /^Read file [^\n]*, lines (\d+)-(\d+)\n/

/** opencode 2's names for the tools the parts know by their opencode 1 names. */
export const V2_TOOL_NAMES: Readonly<Record<string, string>> = { shell: "bash", subagent: "task" }

export const v1ToolName = (name: string) => V2_TOOL_NAMES[name] ?? name

/** The text a tool gave the model in opencode 2: `result.content` parts, else `result.output`. */
export function v2ToolOutput(result: Record<string, unknown>): string {
  if (typeof result.content === "string") return result.content
  if (Array.isArray(result.content)) {
    return result.content
      .map(asRecord)
      .flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : []))
      .join("\n")
  }
  return typeof result.output === "string" ? result.output : ""
}

export type V1Event = { type: string; properties: Record<string, unknown> }

/**
 * An opencode 2 event as the opencode 1 events the tracker reads. The payload sits under `data`; a step
 * names its assistant message, the text of a reply comes whole at `session.text.ended`, and a turn ends
 * with `session.execution.succeeded` (opencode 1's idle).
 */
export function fromV2Event(raw: unknown): V1Event[] {
  const event = asRecord(raw)
  const data = asRecord(event.data)
  const sessionID = textOf(data.sessionID)
  const messageID = textOf(data.assistantMessageID)
  if (!sessionID) return []
  const assistant = (info: Record<string, unknown>): V1Event[] =>
    messageID
      ? [{ type: "message.updated", properties: { info: { id: messageID, sessionID, role: "assistant", ...info } } }]
      : []
  switch (event.type) {
    case "session.created":
      return [
        {
          type: "session.created",
          properties: { info: { id: sessionID, parentID: textOf(data.parentID), title: textOf(data.title) } },
        },
      ]
    case "session.deleted":
      return [{ type: "session.deleted", properties: { info: { id: sessionID } } }]
    case "session.step.started": {
      const model = asRecord(data.model)
      return assistant({ agent: textOf(data.agent), providerID: textOf(model.providerID), modelID: textOf(model.id) })
    }
    case "session.step.ended":
      return assistant({ finish: textOf(data.finish) })
    case "session.text.ended": {
      if (!messageID || typeof data.text !== "string") return []
      const part = { type: "text", id: `${messageID}:${String(data.ordinal)}`, sessionID, messageID, text: data.text }
      return [{ type: "message.part.updated", properties: { part } }]
    }
    case "session.execution.succeeded":
      return [{ type: "session.idle", properties: { sessionID } }]
    default:
      return []
  }
}

/** opencode 2's models as opencode 1's provider list; all but the agent's provider only when the user names them. */
export function v2Providers(list: unknown): { providers: unknown[] } {
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
export async function v2Call<T>(call: () => Promise<T>): Promise<{ data?: T; error?: unknown }> {
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
export function v2Client(ctx: V2Context, writeStderr: (text: string) => void): HostClient {
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

/** The plugin's hooks, fed from opencode 2: tool hooks, the user's prompts, each model request, and the events. */
export async function registerV2(ctx: V2Context, hooks: ReturnType<typeof createHooks>["hooks"], signal: AbortSignal) {
  // Each callback is a host boundary: nothing may throw out of it (a throw in `execute.before` rejects the tool).
  const safe =
    (work: (event: Record<string, unknown>) => Promise<unknown> | undefined): V2Callback =>
    async (event) => {
      try {
        await work(asRecord(event))
      } catch {
        // The hooks guard themselves; this catches only a payload too strange to translate.
      }
    }
  const registrations = await Promise.all([
    ctx.tool.hook(
      "execute.before",
      safe((event) =>
        hooks["tool.execute.before"](
          {
            tool: v1ToolName(textOf(event.tool) ?? ""),
            sessionID: textOf(event.sessionID) ?? "",
            callID: textOf(event.id) ?? "",
          },
          { args: asRecord(event.input) },
        ),
      ),
    ),
    ctx.tool.hook(
      "execute.after",
      safe((event) => afterV2Tool(event, hooks)),
    ),
    ctx.session.hook(
      "prompt",
      safe((event) => {
        const sessionID = textOf(event.sessionID)
        const messageID = textOf(event.messageID)
        const text = asRecord(event.prompt).text
        if (!sessionID || !messageID || typeof text !== "string") return undefined
        return hooks["chat.message"]({ sessionID }, {
          message: { id: messageID, sessionID, role: "user" },
          parts: [{ type: "text", text }],
        } as never)
      }),
    ),
    ctx.session.hook(
      "context",
      safe((event) =>
        hooks["chat.params"](
          {
            sessionID: textOf(event.sessionID) ?? "",
            agent: textOf(event.agent),
            model: asRecord(event.model),
          } as never,
          {} as never,
        ),
      ),
    ),
  ])
  // Not awaited: setup must return, or opencode 2 holds every prompt until it does.
  void pumpV2Events(ctx, hooks, signal)
  return registrations
}

/** A finished tool call: its output is captured; a failed one leaves the record opencode 1 reads off its part. */
export function afterV2Tool(event: Record<string, unknown>, hooks: ReturnType<typeof createHooks>["hooks"]) {
  const name = textOf(event.tool)
  const sessionID = textOf(event.sessionID)
  if (!name || !sessionID) return undefined
  const tool = v1ToolName(name)
  const callID = textOf(event.id) ?? ""
  const args = asRecord(event.input)
  if (event.status === "error") {
    const error = asRecord(event.error)
    const state = { status: "error", input: args, error: textOf(error.message) }
    const part = { type: "tool", id: callID, sessionID, messageID: textOf(event.messageID), tool, state }
    return hooks.event({ event: { type: "message.part.updated", properties: { part } } } as never)
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
  return hooks["tool.execute.after"]({ tool, sessionID, callID, args } as never, output as never)
}

export async function pumpV2Events(
  ctx: V2Context,
  hooks: ReturnType<typeof createHooks>["hooks"],
  signal: AbortSignal,
) {
  try {
    for await (const event of ctx.event.subscribe({ signal })) {
      for (const translated of fromV2Event(event)) await hooks.event({ event: translated } as never)
    }
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
    const registrations = await registerV2(ctx, built.hooks, stop.signal)
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
