/**
 * A fake opencode host for behaviour tests: it calls the plugin's hooks and emits events in the order and
 * shapes measured on opencode 1.18.33 (see shared/opencode-payloads.json), and answers the plugin's
 * `session.prompt` by running the correction turn the real host would run.
 */

import { type Config, parseConfig } from "../../src/config/config.ts"
import type { Deps, HostClient, Ledger } from "../../src/config/effects.ts"
import { HOLD_LIMIT_MS } from "../../src/feedback/notifier.ts"
import { createHooks } from "../../src/host/hooks.ts"
import type plugin from "../../src/plugin.ts"
import { createLedger } from "../../src/state/ledger.ts"
import { readOutput } from "./fixtures.ts"

let counter = 0
export const nextId = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}${(++counter).toString().padStart(6, "0")}`

export interface PromptCall {
  sessionID: string
  /** The first part: the agent's instruction of a note. */
  text: string
  synthetic: boolean | undefined
  /** The visible part beside it: the notice the user sees. */
  marker: string | undefined
  agent: string | undefined
  model: { providerID: string; modelID: string } | undefined
}

export interface HostOptions {
  env?: Record<string, string | undefined>
  options?: unknown
  /** The agent's reply to a note; undefined ends the turn with no reply (as a hung model would). */
  correct?: (note: string, round: number) => string | undefined
  /** What `session.prompt` resolves with; `{ error }` is how the SDK reports failure. */
  promptResult?: () => Promise<{ error?: unknown } | undefined>
  ledger?: Ledger
  mode?: "run" | "serve"
  deps?: Partial<Deps>
  instances?: number
  /** Changes the parsed config before the plugin is built: switches no env var reaches (the benchmark's checks). */
  adjust?: (config: Config) => Config
  /** The parent the host reports for a session the plugin never saw created. */
  sessionParent?: (sessionID: string) => string | undefined
  directory?: string
  /** Wraps the recording client, e.g. to make a call throw synchronously after the host recorded it. */
  wrapClient?: (client: HostClient) => HostClient
  /**
   * The user's opencode providers, as `config.providers()` lists them; judge sessions prompted on one of
   * their models reach `providerURL` (the scripted judge), the way opencode calls a configured provider.
   */
  providers?: Array<{
    id: string
    source?: string
    /** As opencode lists a model: its price, and what says whether it can answer (status, output, limit). */
    models: Record<string, { cost?: { input: number; output: number } } & Record<string, unknown>>
  }>
  providerURL?: string
  /** The opencode.json the `config` hook is called with. */
  opencodeConfig?: Record<string, unknown>
}

/** What the fake host saw of the plugin's judge sessions on the opencode route. */
export interface JudgeSessionRecord {
  id: string
  parentID: string | undefined
  title: string | undefined
  agent: string | undefined
  model: { providerID: string; modelID: string } | undefined
  /** The provider request opencode would send, after the plugin's hooks ran. */
  request:
    | {
        model: string
        max_tokens: number | undefined
        messages: Array<{ role: string; content: string }>
        tools?: unknown
      }
    | undefined
  aborted: boolean
  deleted: boolean
  /** Whether opencode would have published a session.error (which the TUI shows as a red toast). */
  sessionError: boolean
}

export function createHost(opts: HostOptions = {}) {
  const prompts: PromptCall[] = []
  const toasts: Array<{ title?: string; message: string; variant: string; duration?: number }> = []
  const logs: Array<{ level: string; message: string; extra?: Record<string, unknown> }> = []
  const sleeps: number[] = []
  const stderr: string[] = []
  const inFlight = new Set<Promise<unknown>>()
  const sessionLookups: string[] = []
  const directory = opts.directory ?? "/project"
  let rounds = 0
  const judgeSessions: JudgeSessionRecord[] = []
  /** The messages the plugin added without a turn (`noReply`): its /ragfaith answers. */
  const reports: Array<{ sessionID: string; parts: Array<{ text: string; synthetic?: boolean; ignored?: boolean }> }> =
    []
  /** The notices the plugin added under a reply without a turn (`noReply` outside a command), as written. */
  const notices: Array<{ sessionID: string; text: string }> = []
  /** Commands running now: a noReply message sent meanwhile is the command's answer. */
  let commands = 0
  const aborts = new Map<string, () => void>()
  /** What the plugin told the TUI through `tui.publish`: commands it ran, text put into the prompt box. */
  const published: Array<{ type: string; properties: Record<string, unknown> }> = []
  /** The revert points the plugin set (`session.revert`, or undefined for `session.unrevert`). */
  const reverts: Array<{ sessionID: string; messageID: string | undefined }> = []
  /** Every stored user message with its parts, as `session.message` answers. */
  const stored = new Map<string, { info: Record<string, unknown>; parts: Array<Record<string, unknown>> }>()

  const client: HostClient = {
    session: {
      prompt: async (call) => {
        if (call.body.agent === "ragfaith-judge") {
          return runJudgeSession(call.path.id, call.body, call.body.parts.map((part) => part.text).join(""))
        }
        // opencode stores a noReply prompt as a user message and starts no turn: the plugin's /ragfaith report,
        // or, outside a command, its notice under a reply.
        if (call.body.noReply) {
          if (commands > 0) reports.push({ sessionID: call.path.id, parts: call.body.parts })
          else notices.push({ sessionID: call.path.id, text: call.body.parts.map((part) => part.text).join("") })
          const id = await storeUserMessage(call.path.id, call.body.parts)
          return { data: { info: stored.get(id)?.info } } as { error?: unknown }
        }
        const [first, ...rest] = call.body.parts
        const text = first?.text ?? ""
        prompts.push({
          sessionID: call.path.id,
          text,
          synthetic: first?.synthetic,
          marker: rest.find((part) => !part.synthetic)?.text,
          agent: call.body.agent,
          model: call.body.model,
        })
        if (opts.promptResult) return opts.promptResult()
        const turn = runCorrection(call.path.id, call.body.parts)
        inFlight.add(turn)
        await turn
        inFlight.delete(turn)
        return { data: {} } as { error?: unknown }
      },
      get: async (call) => {
        sessionLookups.push(call.path.id)
        const parentID = opts.sessionParent?.(call.path.id)
        return { data: parentID ? { parentID } : {} }
      },
      // As measured on 1.18.33: session.created reaches the plugin before create() returns.
      create: async (call) => {
        const id = nextId("ses")
        const info = { id, slug: "s", version: "1.18.33", projectID: "p", directory, time: {}, ...call.body }
        judgeSessions.push({
          id,
          parentID: call.body.parentID,
          title: call.body.title,
          agent: undefined,
          model: undefined,
          request: undefined,
          aborted: false,
          deleted: false,
          sessionError: false,
        })
        await event("session.created", { sessionID: id, info })
        return { data: info }
      },
      message: async (call) => {
        const message = stored.get(call.path.messageID)
        return message ? { data: message } : { error: { name: "NotFoundError" } }
      },
      revert: async (call) => {
        reverts.push({ sessionID: call.path.id, messageID: call.body.messageID })
        await revert(call.path.id, call.body.messageID)
        return { data: {} }
      },
      unrevert: async (call) => {
        reverts.push({ sessionID: call.path.id, messageID: undefined })
        await revert(call.path.id, undefined)
        return { data: {} }
      },
      abort: async (call) => {
        const record = judgeSessions.find((session) => session.id === call.path.id)
        if (record) record.aborted = true
        aborts.get(call.path.id)?.()
        return { data: true } as { error?: unknown }
      },
      delete: async (call) => {
        const record = judgeSessions.find((session) => session.id === call.path.id)
        if (record) record.deleted = true
        await event("session.deleted", { sessionID: call.path.id, info: { id: call.path.id } })
        return { data: true } as { error?: unknown }
      },
    },
    config: {
      providers: async () => ({ data: { providers: opts.providers ?? [], default: {} } }),
    },
    tui: {
      showToast: async (call) => {
        const { title, message, variant, duration } = call.body
        toasts.push({ title, message, variant, duration })
        return { data: true } as { error?: unknown }
      },
      publish: async (call) => {
        published.push(call.body)
        return { data: true }
      },
    },
    app: {
      log: async (call) => {
        logs.push({ level: call.body.level, message: call.body.message, extra: call.body.extra })
        return { data: true } as { error?: unknown }
      },
    },
  }

  // The configuration as shipped, the relevance gate on; a test whose source does not speak to its reply turns
  // the gate off by name (GATE_OFF in support/judge.ts).
  const parsed = parseConfig(opts.options, opts.env ?? {})
  const config = opts.adjust ? opts.adjust(parsed.config) : parsed.config
  const { warnings } = parsed
  const deps: Deps = {
    client: opts.wrapClient ? opts.wrapClient(client) : client,
    fetch: (url, init) => fetch(url, init),
    now: () => Date.now(),
    sleep: async (ms) => {
      // The toast hold's limit timers are the notifier's own, not waits of the judge or the note: left out.
      if (ms !== HOLD_LIMIT_MS) sleeps.push(ms)
    },
    random: () => 0.5,
    readText: async () => undefined,
    realPath: async () => undefined,
    readHead: async () => undefined,
    appendText: async () => {},
    ensureDir: async () => {},
    writeStderr: (text) => {
      stderr.push(text)
    },
    fileExists: () => false,
    mode: opts.mode ?? "serve",
    logDir: "~/.local/share/opencode/log",
    ledger: opts.ledger ?? createLedger(),
    failExit: () => {},
    ...opts.deps,
  }
  // Several instances sharing one ledger stand for opencode loading the plugin twice in one process.
  const instances = Array.from({ length: opts.instances ?? 1 }, () =>
    createHooks({ directory }, config, warnings, deps),
  )
  const plugin = instances[0] as (typeof instances)[number]
  // Events and hook arguments are passed as the raw shapes opencode sends, so they are loosely typed here.
  type LooseHook = (...args: unknown[]) => Promise<void>
  const fanOut =
    (name: keyof typeof plugin.hooks): LooseHook =>
    async (...args) => {
      for (const instance of instances) await (instance.hooks[name] as LooseHook)(...args)
    }
  const hooks = {
    event: fanOut("event"),
    "chat.message": fanOut("chat.message"),
    "chat.params": fanOut("chat.params"),
    "tool.execute.before": fanOut("tool.execute.before"),
    "tool.execute.after": fanOut("tool.execute.after"),
    "experimental.text.complete": fanOut("experimental.text.complete"),
    "experimental.chat.system.transform": fanOut("experimental.chat.system.transform"),
    config: fanOut("config"),
    "command.execute.before": fanOut("command.execute.before"),
    dispose: fanOut("dispose"),
  }
  const allPending = () => instances.flatMap((instance) => [...instance.pending])

  const event = (type: string, properties: Record<string, unknown>) =>
    hooks.event({ event: { id: nextId("evt"), type, properties } })

  /** session.created, as opencode emits it before the first prompt. */
  const createSession = async (parentID?: string) => {
    const id = nextId("ses")
    const info = { id, slug: "s", version: "1.18.33", projectID: "p", directory, title: "New session", time: {} }
    await event("session.created", { sessionID: id, info: parentID ? { ...info, parentID } : info })
    return id
  }

  const agent = { providerID: "mock", modelID: "scripted" }

  /** The session's revert point moved, as undo and redo move it: opencode sends the session again. */
  const revert = (sessionID: string, messageID: string | undefined) =>
    event("session.updated", {
      sessionID,
      info: { id: sessionID, title: "Scripted session", ...(messageID ? { revert: { messageID } } : {}) },
    })

  /** A user message: the chat.message hook, then message.updated and the text part event. */
  /** A user message of any parts, as opencode stores one: the chat.message hook, the message, each part in order. */
  const storeUserMessage = async (
    sessionID: string,
    texts: Array<{ text: string; synthetic?: boolean; ignored?: boolean }>,
    agentName = "build",
  ) => {
    const id = nextId("msg")
    const message = { id, role: "user", sessionID, time: { created: Date.now() }, agent: agentName, model: agent }
    const parts = texts.map((part) => ({
      id: nextId("prt"),
      messageID: id,
      sessionID,
      type: "text",
      text: part.text,
      ...(part.synthetic ? { synthetic: true } : {}),
      ...(part.ignored ? { ignored: true } : {}),
    }))
    const asked = texts.every((part) => part.synthetic || part.ignored)
      ? { sessionID }
      : { sessionID, agent: agentName, model: agent }
    stored.set(id, { info: message, parts })
    await hooks["chat.message"](asked, { message, parts })
    await event("message.updated", { sessionID, info: message })
    for (const part of parts) await event("message.part.updated", { sessionID, part, time: Date.now() })
    return id
  }

  /** A user message: the chat.message hook, then message.updated and the text part event. */
  const userMessage = async (sessionID: string, text: string, synthetic = false, agentName = "build") => {
    const id = await storeUserMessage(sessionID, [{ text, synthetic }], agentName)
    await event("session.status", { sessionID, status: { type: "busy" } })
    return id
  }

  /**
   * A slash command as opencode runs it: `command.execute.before` with the template's parts, then a model turn,
   * unless the hook threw (the one way a plugin answers a command itself).
   */
  const command = async (sessionID: string, name: string, args = "") => {
    const output = { parts: [{ type: "text", text: `Show the ragfaith report.${args ? `\n\n${args}` : ""}` }] }
    commands++
    try {
      await hooks["command.execute.before"]({ command: name, sessionID, arguments: args }, output)
      return { modelTurn: true, error: undefined }
    } catch (error) {
      return { modelTurn: false, error }
    } finally {
      commands--
    }
  }

  /** One tool step: before and after hooks around the tool part's life, then the step's message finishes. */
  const toolCall = async (
    sessionID: string,
    parentID: string,
    tool: string,
    args: Record<string, unknown>,
    result: { output: string; metadata?: Record<string, unknown>; title?: string } | { error: string },
  ) => {
    const messageID = nextId("msg")
    const assistant = { id: messageID, parentID, role: "assistant", mode: "build", agent: "build", sessionID, ...agent }
    await event("message.updated", { sessionID, info: { ...assistant, providerID: "mock", modelID: "scripted" } })
    await hooks["chat.params"](
      { sessionID, agent: "build", model: { id: "scripted", providerID: "mock" } },
      { maxOutputTokens: 8192, options: {} },
    )
    const callID = nextId("call")
    const partBase = { id: nextId("prt"), messageID, sessionID, type: "tool", tool, callID }
    const beforeOutput = { args }
    await hooks["tool.execute.before"]({ tool, sessionID, callID }, beforeOutput)
    if ("error" in result) {
      await event("message.part.updated", {
        sessionID,
        part: { ...partBase, state: { status: "error", input: args, error: result.error, time: { start: 1, end: 2 } } },
      })
    } else {
      const output = { title: result.title ?? tool, output: result.output, metadata: result.metadata ?? {} }
      await hooks["tool.execute.after"]({ tool, sessionID, callID, args }, output)
      await event("message.part.updated", {
        sessionID,
        part: {
          ...partBase,
          state: { status: "completed", input: args, output: output.output, time: { start: 1, end: 2 } },
        },
      })
    }
    await event("message.updated", {
      sessionID,
      info: { ...assistant, providerID: "mock", modelID: "scripted", finish: "tool-calls" },
    })
    return beforeOutput
  }

  /** The final step of a turn: its text streams, completes, the message finishes with stop, then idle. */
  const reply = async (sessionID: string, parentID: string, text: string, options: { idle?: boolean } = {}) => {
    const messageID = nextId("msg")
    const info = { id: messageID, parentID, role: "assistant", mode: "build", agent: "build", sessionID }
    const model = { providerID: "mock", modelID: "scripted" }
    await event("message.updated", { sessionID, info: { ...info, ...model, time: { created: Date.now() } } })
    await hooks["chat.params"](
      { sessionID, agent: "build", model: { id: "scripted", providerID: "mock" } },
      { maxOutputTokens: 8192, options: {} },
    )
    const partID = nextId("prt")
    const part = { id: partID, messageID, sessionID, type: "text" }
    await event("message.part.updated", { sessionID, part: { ...part, text: "", time: { start: 1 } } })
    for (let i = 0; i < text.length; i += 40) {
      await event("message.part.delta", { sessionID, messageID, partID, field: "text", delta: text.slice(i, i + 40) })
    }
    const complete = { text }
    await hooks["experimental.text.complete"]({ sessionID, messageID, partID }, complete)
    await event("message.part.updated", { sessionID, part: { ...part, text, time: { start: 1, end: 2 } } })
    await event("message.updated", { sessionID, info: { ...info, ...model, finish: "stop" } })
    await event("message.updated", { sessionID, info: { ...info, ...model, finish: "stop", time: { completed: 2 } } })
    if (options.idle !== false) await idle(sessionID)
    return messageID
  }

  const idle = async (sessionID: string) => {
    await event("session.status", { sessionID, status: { type: "busy" } })
    await event("session.status", { sessionID, status: { type: "idle" } })
    await event("session.idle", { sessionID })
  }

  async function runCorrection(
    sessionID: string,
    parts: Array<{ text: string; synthetic?: boolean; ignored?: boolean }>,
  ) {
    await new Promise((resolve) => setTimeout(resolve, 0))
    const userID = await storeUserMessage(sessionID, parts)
    await event("session.status", { sessionID, status: { type: "busy" } })
    const answer = opts.correct?.(parts[0]?.text ?? "", ++rounds)
    if (answer === undefined) return idle(sessionID)
    await reply(sessionID, userID, answer)
  }

  /**
   * A judge session's prompt, as opencode 1.18.33 runs it: the chat hooks, the system transform, one provider
   * request, and the answer in `data.info`/`data.parts`; a provider error ends in `info.error` and a
   * session.error, a retryable one first in a retry status (which the plugin may answer with an abort).
   */
  async function runJudgeSession(
    id: string,
    body: { agent?: string; model?: { providerID: string; modelID: string } },
    text: string,
  ) {
    const record = judgeSessions.find((session) => session.id === id)
    if (record) Object.assign(record, { agent: body.agent, model: body.model })
    const model = body.model ?? { providerID: "mock", modelID: "scripted" }
    const message = { id: nextId("msg"), role: "user", sessionID: id, agent: body.agent, model }
    const parts = [{ id: nextId("prt"), messageID: message.id, sessionID: id, type: "text", text }]
    await hooks["chat.message"]({ sessionID: id, agent: body.agent, model }, { message, parts })
    await event("message.updated", { sessionID: id, info: message })
    const system = { system: ["You are opencode.\n<env>cwd: /project</env>\nInstructions from: /project/AGENTS.md"] }
    await hooks["experimental.chat.system.transform"](
      { sessionID: id, model: { id: model.modelID, providerID: model.providerID } },
      system,
    )
    const params = { temperature: 0, maxOutputTokens: 8192 as number | undefined, options: {} }
    await hooks["chat.params"](
      { sessionID: id, agent: body.agent, model: { id: model.modelID, providerID: model.providerID } },
      params,
    )
    const request = {
      model: model.modelID,
      max_tokens: params.maxOutputTokens,
      temperature: 0,
      messages: [
        { role: "system", content: system.system.join("\n") },
        { role: "user", content: text },
      ],
    }
    if (record) record.request = request
    const assistant = {
      id: nextId("msg"),
      role: "assistant",
      sessionID: id,
      parentID: message.id,
      time: { created: 1 },
    }
    const controller = new AbortController()
    const aborted = new Promise<"aborted">((resolve) =>
      aborts.set(id, () => {
        controller.abort()
        resolve("aborted")
      }),
    )
    const answer = fetch(`${opts.providerURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
      signal: controller.signal,
    }).catch(() => "aborted" as const)
    const response = await Promise.race([answer, aborted])
    const finish = async (info: Record<string, unknown>, resultParts: unknown[] = []) => {
      await event("session.status", { sessionID: id, status: { type: "idle" } })
      await event("session.idle", { sessionID: id })
      return { data: { info: { ...assistant, ...info }, parts: resultParts } }
    }
    if (response === "aborted") return finish({ error: { name: "MessageAbortedError", data: { message: "Aborted" } } })
    if (response.status === 429 || response.status >= 500) {
      // opencode would retry for up to a minute; a plugin that aborts on the retry status ends it now.
      await event("session.status", { sessionID: id, status: { type: "retry", attempt: 1, message: "scripted" } })
      if (controller.signal.aborted) return finish({})
      await Bun.sleep(50)
      if (controller.signal.aborted) return finish({})
    }
    if (!response.ok) {
      const error = {
        name: "APIError",
        data: { message: `HTTP ${response.status}`, statusCode: response.status, isRetryable: response.status >= 500 },
      }
      if (record) record.sessionError = true
      await event("session.error", { sessionID: id, error })
      return finish({ error })
    }
    const payload = (await response.json()) as {
      choices?: Array<{ message?: { content?: string } }>
      usage?: Record<string, number>
    }
    const content = payload.choices?.[0]?.message?.content ?? ""
    const usage = payload.usage ?? {}
    const tokens = {
      input: usage.prompt_tokens ?? 0,
      output: usage.completion_tokens ?? 0,
      reasoning: 0,
      cache: { read: 0, write: 0 },
    }
    return finish({ finish: "stop", tokens }, [{ type: "text", text: content }])
  }

  /** Waits until no judgment and no correction turn is under way. */
  const settle = async () => {
    for (let i = 0; i < 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 2))
      if (allPending().length === 0 && inFlight.size === 0) {
        await new Promise((resolve) => setTimeout(resolve, 5))
        if (allPending().length === 0 && inFlight.size === 0) return
      }
      await Promise.allSettled([...allPending(), ...inFlight])
    }
    throw new Error("host did not settle")
  }

  /** A whole turn: user prompt, a read of a file, the final reply, idle. */
  const readTurn = async (sessionID: string, prompt: string, file: { path: string; text: string }, answer: string) => {
    const userID = await userMessage(sessionID, prompt)
    await toolCall(sessionID, userID, "read", { filePath: file.path }, readOutput(file.path, file.text))
    const replyID = await reply(sessionID, userID, answer)
    return { userID, replyID }
  }

  // opencode calls the config hook once, at startup, with the merged opencode.json.
  const opencodeConfig: Record<string, unknown> = { model: "mock/scripted", agent: {}, ...opts.opencodeConfig }
  void hooks.config(opencodeConfig)

  return {
    hooks,
    plugin,
    instances,
    config,
    warnings,
    opencodeConfig,
    judgeSessions,
    reports,
    notices,
    /** Each notice as the sentence it tells, the way a toast would say it: "The judge refused the key …". */
    told: () =>
      notices.map(({ text }) => {
        const plain = text.replace(/^Automatic check: /, "").replace(/\s*\n\s*/g, " ")
        return plain.charAt(0).toUpperCase() + plain.slice(1)
      }),
    published,
    reverts,
    revert,
    command,
    prompts,
    sessionLookups,
    toasts,
    logs,
    sleeps,
    stderr,
    event,
    createSession,
    userMessage,
    toolCall,
    reply,
    idle,
    readTurn,
    settle,
  }
}
