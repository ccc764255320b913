// Live verification harness: the real opencode CLI (1.18.33) against a scripted OpenAI-compatible endpoint.
//
// One Bun.serve on 127.0.0.1 port 0 plays three roles:
// - AGENT  at /v1/chat/completions: opencode's `@ai-sdk/openai-compatible` provider streams from it (SSE). A
//   per-scenario script decides, from the request body, whether to answer with text or with tool calls. The
//   small model ("title") gets a short title.
// - JUDGE  at /judge/v1/chat/completions: the plugin's judge. A per-scenario rule returns a verdict or a fault
//   (HTTP status, latency, an unreadable answer, a garbage body); or, with `judgeUpstream`, a recording
//   pass-through to a real judge (the demo).
// - WEB    at /page (and any path in `pages`): a page for the webfetch tool.
// Every request is recorded (kind, path, parsed body, bytes) for assertions.
//
// `startOpencode` runs `opencode serve` in an isolated scratch directory (own HOME and XDG dirs, no network but
// loopback, pre-seeded dependency folders so opencode never calls a registry) and drives it over HTTP: create a
// session, prompt it, record the /event stream, wait until everything is quiet, read the stored messages, stop.

import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { closedPort } from "../support/fixtures.ts"
import {
  answerJudge,
  chatCompletion,
  contentText,
  type JudgeReply,
  type JudgeRule,
  readJudgeCall,
} from "../support/judge.ts"

// ── Constants ───────────────────────────────────────────────────────────────

export const REPO_DIR = resolve(import.meta.dir, "../..")
export const OPENCODE_BIN = join(REPO_DIR, "node_modules/.bin/opencode")
export const PLUGIN_SOURCE = join(REPO_DIR, "src/index.ts")
export const PACKAGE_NAME = "@resonanceee/opencode-ragfaith"
export const NOTE_TAG = "[ragfaith]"
export const AGENT_MODEL = "scripted"
export const TITLE_MODEL = "title"
// A third model of the mock provider: the judge when the plugin routes its calls through opencode's providers.
export const ROUTE_JUDGE_MODEL = "judge"

// opencode runs `npm install @opencode-ai/plugin` in every config folder whose node_modules is missing or whose
// package-lock.json lacks a dependency of package.json (Npm.install in the 1.18.33 bundle). Seeding both skips it.
const SEED_PACKAGES = ["@opencode-ai/plugin"] as const

const ISOLATION_ENV = {
  OPENCODE_DISABLE_AUTOUPDATE: "1",
  OPENCODE_DISABLE_MODELS_FETCH: "1",
  OPENCODE_DISABLE_SHARE: "1",
  OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
  NO_COLOR: "1",
} as const

// ── Types ───────────────────────────────────────────────────────────────────

export type RequestKind = "agent" | "title" | "judge" | "page" | "other"

export interface RecordedRequest {
  seq: number
  kind: RequestKind
  method: string
  path: string
  bytes: number
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON, inspected by tests
  body: any
  authorization: string | null
  // ms since the endpoint started
  at: number
  // wall-clock ms (Date.now()) when the request arrived and when the answer was complete
  startedAt: number
  endedAt: number
  status: number
  // a judge request that came through opencode's providers (the route), not straight from the plugin
  route?: boolean
  // what the endpoint answered: an AgentAction, a JudgeReply, or a title
  answer?: unknown
  done: boolean
}

export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool"
  content?: string | Array<{ type: string; text?: string }> | null
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>
  tool_call_id?: string
}

export interface ToolCall {
  name: string
  args: Record<string, unknown>
}

export type AgentAction = { text: string } | { tools: ToolCall[]; text?: string }

export interface AgentContext {
  // biome-ignore lint/suspicious/noExplicitAny: raw request body
  body: any
  // the endpoint's own base URL (http://127.0.0.1:<port>), for webfetch targets
  endpointURL: string
  messages: ChatMessage[]
  system: string
  // text of the first user message of the conversation (tells a subagent session from its parent)
  firstUserText: string
  lastUserText: string
  // the last user message is a ragfaith note
  isNote: boolean
  // how many ragfaith notes the conversation holds
  notes: number
  // assistant messages after the last user message (0 = first step of this turn)
  step: number
  // outputs of tool results after the last user message
  toolOutputs: string[]
}

export type AgentScript = (ctx: AgentContext) => AgentAction

export interface Page {
  contentType: string
  body: string
}

// ── Endpoint ────────────────────────────────────────────────────────────────

export interface Endpoint {
  url: string
  port: number
  agentBaseURL: string
  judgeBaseURL: string
  requests: RecordedRequest[]
  agent: AgentScript
  judge: JudgeRule
  pages: Record<string, Page>
  inflight(): number
  lastActivity(): number
  byKind(kind: RequestKind): RecordedRequest[]
  stop(): Promise<void>
}

export interface EndpointOptions {
  agent?: AgentScript
  judge?: JudgeRule
  pages?: Record<string, Page>
  // Forward judge requests to a real OpenAI-compatible judge (recording both sides) instead of the scripted rule.
  // The plugin's Authorization header is passed through unchanged and never recorded.
  judgeUpstream?: string
}

export const agentContext = (body: { messages?: ChatMessage[] }, endpointURL = ""): AgentContext => {
  const all = body.messages ?? []
  const system = all
    .filter((m) => m.role === "system")
    .map((m) => contentText(m.content))
    .join("\n")
  const messages = all.filter((m) => m.role !== "system")
  const userIdx = messages.map((m) => m.role).lastIndexOf("user")
  const users = messages.filter((m) => m.role === "user").map((m) => contentText(m.content))
  const lastUserText = userIdx >= 0 ? contentText(messages[userIdx]?.content) : ""
  const after = userIdx >= 0 ? messages.slice(userIdx + 1) : messages
  return {
    body,
    endpointURL,
    messages,
    system,
    firstUserText: users[0] ?? "",
    lastUserText,
    isNote: lastUserText.trimStart().startsWith(NOTE_TAG),
    notes: users.filter((t) => t.trimStart().startsWith(NOTE_TAG)).length,
    step: after.filter((m) => m.role === "assistant").length,
    toolOutputs: after.filter((m) => m.role === "tool").map((m) => contentText(m.content)),
  }
}

// Answers the first judge requests with the given HTTP statuses (e.g. [429, 500]), then defers to `rule`.
export const withFaults = (statuses: number[], rule: JudgeRule): JudgeRule => {
  let calls = 0
  return (ctx) => {
    const status = statuses[calls++]
    return status === undefined ? rule(ctx) : { status }
  }
}

export const defaultAgent: AgentScript = () => ({ text: "Done." })
export const faithfulJudge: JudgeRule = (ctx) => ({
  verdict: "faithful",
  source: ctx.sources[0]?.id ?? "S1",
  reason: "supported",
})

const sseChunk = (id: string, model: string, choice: unknown, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({
    id,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: choice === null ? [] : [choice],
    ...extra,
  })}\n\n`

const splitText = (text: string): string[] => {
  const parts = text.match(/[\s\S]{1,40}/g) ?? [""]
  return parts
}

export const streamBody = (seq: number, model: string, action: AgentAction, promptBytes: number): string => {
  const id = `chatcmpl-${seq}`
  let out = sseChunk(id, model, { index: 0, delta: { role: "assistant", content: "" }, finish_reason: null })
  const text = "text" in action && action.text ? action.text : ""
  for (const piece of text ? splitText(text) : []) {
    out += sseChunk(id, model, { index: 0, delta: { content: piece }, finish_reason: null })
  }
  const tools = "tools" in action ? action.tools : []
  tools.forEach((call, i) => {
    out += sseChunk(id, model, {
      index: 0,
      delta: {
        tool_calls: [
          {
            index: i,
            id: `call_${seq}_${i}`,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          },
        ],
      },
      finish_reason: null,
    })
  })
  out += sseChunk(id, model, { index: 0, delta: {}, finish_reason: tools.length ? "tool_calls" : "stop" })
  const completion = Math.max(1, Math.ceil(text.length / 4) + tools.length * 10)
  const prompt = Math.ceil(promptBytes / 4)
  out += sseChunk(id, model, null, {
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  })
  return `${out}data: [DONE]\n\n`
}

// The judge prompt opens with this line in both languages; a request whose system message starts so is a judge call.
const JUDGE_PROMPT_OPENING = "You are an impartial fact-checking judge."

// biome-ignore lint/suspicious/noExplicitAny: raw request body
const isJudgePrompt = (body: any) => {
  const system = Array.isArray(body?.messages) ? body.messages.find((m: ChatMessage) => m.role === "system") : undefined
  return contentText(system?.content).startsWith(JUDGE_PROMPT_OPENING)
}

// An answer as the server-sent event stream opencode's providers send when asked for one.
const streamed = (rec: RecordedRequest, model: string, action: AgentAction) =>
  new Response(streamBody(rec.seq, model, action, rec.bytes), {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export const DEFAULT_PAGE: Page = {
  contentType: "text/html; charset=utf-8",
  body:
    "<!doctype html><html><head><title>Freedonia facts</title></head><body>" +
    "<h1>Freedonia</h1><p>The capital of Freedonia is Marxburg.</p>" +
    "<p>Freedonia has 3 bridges over the river Zeppo.</p></body></html>",
}

export const startEndpoint = (opts: EndpointOptions = {}): Endpoint => {
  const requests: RecordedRequest[] = []
  const t0 = Date.now()
  let judgeIndex = 0
  let inflight = 0
  let last = Date.now()

  const endpoint: Endpoint = {
    url: "",
    port: 0,
    agentBaseURL: "",
    judgeBaseURL: "",
    requests,
    agent: opts.agent ?? defaultAgent,
    judge: opts.judge ?? faithfulJudge,
    pages: { "/page": DEFAULT_PAGE, ...opts.pages },
    inflight: () => inflight,
    lastActivity: () => last,
    byKind: (kind) => requests.filter((r) => r.kind === kind),
    stop: async () => {
      server.stop(true)
    },
  }

  // The scripted judge's answer to one request, recorded; a rule that throws answers 500.
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON
  const askJudge = async (body: any, rec: RecordedRequest) => {
    const call = readJudgeCall(body, judgeIndex++)
    let reply: JudgeReply
    try {
      reply = await endpoint.judge(call)
    } catch (err) {
      reply = { status: 500, body: `judge rule threw: ${String(err)}` }
    }
    rec.answer = reply
    rec.status = "status" in reply ? reply.status : 200
    return { call, reply }
  }

  const handle = async (req: Request, rec: RecordedRequest): Promise<Response> => {
    const url = new URL(req.url)
    const page = endpoint.pages[url.pathname]
    if (req.method === "GET" && page) {
      rec.kind = "page"
      rec.status = 200
      return new Response(page.body, { headers: { "content-type": page.contentType } })
    }
    if (req.method !== "POST" || !url.pathname.endsWith("/chat/completions")) {
      rec.status = 404
      return new Response("not found", { status: 404 })
    }
    const body = rec.body ?? {}
    if (url.pathname.startsWith("/judge/") && opts.judgeUpstream) {
      rec.kind = "judge"
      rec.authorization = rec.authorization ? "Bearer [real key, not recorded]" : null
      judgeIndex++
      const upstream = await fetch(`${opts.judgeUpstream.replace(/\/+$/, "")}/chat/completions`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(req.headers.get("authorization") ? { authorization: req.headers.get("authorization") ?? "" } : {}),
        },
        body: JSON.stringify(body),
      })
      const text = await upstream.text()
      rec.status = upstream.status
      let content = text
      try {
        content = JSON.parse(text)?.choices?.[0]?.message?.content ?? text
      } catch {}
      rec.answer = { raw: String(content) }
      return new Response(text, {
        status: upstream.status,
        headers: { "content-type": upstream.headers.get("content-type") ?? "application/json" },
      })
    }
    if (url.pathname.startsWith("/judge/")) {
      rec.kind = "judge"
      const { call, reply } = await askJudge(body, rec)
      const prompt = Math.ceil(rec.bytes / 4)
      return answerJudge(reply, call, { prompt_tokens: prompt, completion_tokens: 24, total_tokens: prompt + 24 })
    }
    const model = String(body.model ?? "")
    // any mock model asked with the judge prompt is the judge on the route (a second opinion goes to another model)
    if (isJudgePrompt(body)) {
      rec.kind = "judge"
      rec.route = true
      const { call, reply } = await askJudge(body, rec)
      // opencode asks its providers for a stream: a verdict arrives as streamed text, a status as that status
      return answerJudge(reply, call, undefined, (text) => streamed(rec, model, { text }))
    }
    let action: AgentAction
    if (model === TITLE_MODEL || model === ROUTE_JUDGE_MODEL) {
      rec.kind = "title"
      action = { text: "Scripted session" }
    } else {
      rec.kind = "agent"
      try {
        action = endpoint.agent(agentContext(body, endpoint.url))
      } catch (err) {
        action = { text: `agent script threw: ${String(err)}` }
      }
    }
    rec.answer = action
    rec.status = 200
    if (body.stream) return streamed(rec, model, action)
    const tools = "tools" in action ? action.tools : []
    const toolCalls = tools.map((call, i) => ({
      id: `call_${rec.seq}_${i}`,
      name: call.name,
      arguments: JSON.stringify(call.args),
    }))
    const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 }
    return Response.json(
      chatCompletion({ content: action.text ?? "", model, id: `chatcmpl-${rec.seq}`, toolCalls, usage }),
    )
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 120,
    async fetch(req) {
      const url = new URL(req.url)
      const raw = req.method === "POST" ? await req.text() : ""
      let body: unknown = null
      try {
        body = raw ? JSON.parse(raw) : null
      } catch {
        body = raw
      }
      const rec: RecordedRequest = {
        seq: requests.length + 1,
        kind: "other",
        method: req.method,
        path: url.pathname,
        bytes: Buffer.byteLength(raw),
        body,
        authorization: req.headers.get("authorization"),
        at: Date.now() - t0,
        startedAt: Date.now(),
        endedAt: 0,
        status: 0,
        done: false,
      }
      requests.push(rec)
      inflight++
      last = Date.now()
      try {
        return await handle(req, rec)
      } finally {
        inflight--
        rec.done = true
        rec.endedAt = Date.now()
        last = Date.now()
      }
    },
  })
  endpoint.port = server.port ?? 0
  endpoint.url = `http://127.0.0.1:${endpoint.port}`
  endpoint.agentBaseURL = `${endpoint.url}/v1`
  endpoint.judgeBaseURL = `${endpoint.url}/judge/v1`
  return endpoint
}

// ── Scratch and config ──────────────────────────────────────────────────────

export interface Scratch {
  root: string
  home: string
  config: string
  data: string
  state: string
  cache: string
  project: string
  bin: string
  env: Record<string, string>
}

export const makeScratch = (prefix = "ragfaith-live-"): Scratch => {
  const root = mkdtempSync(join(tmpdir(), prefix))
  const s: Scratch = {
    root,
    home: join(root, "home"),
    config: join(root, "xdg/config"),
    data: join(root, "xdg/data"),
    state: join(root, "xdg/state"),
    cache: join(root, "xdg/cache"),
    project: join(root, "project"),
    bin: join(root, "bin"),
    env: {},
  }
  for (const d of [s.home, s.config, s.data, s.state, s.cache, s.project, s.bin]) mkdirSync(d, { recursive: true })
  s.env = {
    HOME: s.home,
    XDG_CONFIG_HOME: s.config,
    XDG_DATA_HOME: s.data,
    XDG_STATE_HOME: s.state,
    XDG_CACHE_HOME: s.cache,
    ...ISOLATION_ENV,
  }
  return s
}

// A config folder counts as installed when node_modules exists and package-lock.json's root package lists every
// dependency of package.json plus @opencode-ai/plugin. The packages are symlinked from this repo's node_modules.
export const seedConfigFolder = (dir: string) => {
  mkdirSync(join(dir, "node_modules/@opencode-ai"), { recursive: true })
  const deps: Record<string, string> = {}
  for (const name of SEED_PACKAGES) {
    const src = join(REPO_DIR, "node_modules", name)
    const version = JSON.parse(readFileSync(join(src, "package.json"), "utf8")).version as string
    deps[name] = version
    const dst = join(dir, "node_modules", name)
    if (!existsSync(dst)) symlinkSync(src, dst, "dir")
  }
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ dependencies: deps }, null, 2)}\n`)
  writeFileSync(
    join(dir, "package-lock.json"),
    `${JSON.stringify({ name: "opencode-config", lockfileVersion: 3, requires: true, packages: { "": { dependencies: deps } } }, null, 2)}\n`,
  )
}

// True when opencode left the seeded config folders alone (no install rewrote the lock or added packages).
export const seedIntact = (scratch: Scratch) =>
  [join(scratch.project, ".opencode"), join(scratch.config, "opencode")].every((dir) => {
    const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")) as { packages?: object }
    const names = readdirSync(join(dir, "node_modules")).filter((n) => !n.startsWith("."))
    return Object.keys(lock.packages ?? {}).length === 1 && names.join(",") === "@opencode-ai"
  })

export type LoadMode = "copy" | "npm" | "file" | "none"

export interface PluginLoad {
  mode: LoadMode
  // the plugin file (copy and file modes); default: this repo's src/index.ts
  source?: string
  // the package folder to `npm pack` (npm mode); default: this repo
  packageDir?: string
  // options tuple (npm and file modes; ignored by copy mode, which opencode calls with options undefined)
  options?: Record<string, unknown>
}

// `npm pack` once per package folder and process; the tarball lives in a scratch folder that cleanupAll removes.
const packCache = new Map<string, string>()
let packRoot: string | null = null
export const packPlugin = (packageDir = REPO_DIR): string => {
  const hit = packCache.get(packageDir)
  if (hit && existsSync(hit)) return hit
  if (!packRoot) packRoot = mkdtempSync(join(tmpdir(), "ragfaith-pack-"))
  const res = spawnSync("npm", ["pack", "--json", "--pack-destination", packRoot, packageDir], {
    encoding: "utf8",
    env: { ...process.env, npm_config_offline: "true", npm_config_audit: "false", npm_config_fund: "false" },
  })
  if (res.status !== 0) throw new Error(`npm pack failed: ${res.stderr}`)
  const info = JSON.parse(res.stdout) as Array<{ filename: string }>
  const file = join(packRoot, info[0]?.filename ?? "")
  packCache.set(packageDir, file)
  return file
}

// opencode resolves an npm plugin spec through Npm.add: it uses $XDG_CACHE_HOME/opencode/packages/<spec>/ when
// node_modules/<name> exists there, and only otherwise runs an install. A spec without a version is normalised to
// <name>@latest first. We install the packed tarball into that folder offline.
export const npmPluginDir = (scratch: Scratch, spec = `${PACKAGE_NAME}@latest`) =>
  join(scratch.cache, "opencode/packages", spec)

export const preinstallNpmPlugin = (scratch: Scratch, tarball: string, spec = `${PACKAGE_NAME}@latest`) => {
  const dir = npmPluginDir(scratch, spec)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, "package.json"), "{}\n")
  const res = spawnSync(
    "npm",
    ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--save", "--prefix", dir, tarball],
    {
      encoding: "utf8",
      env: { ...process.env, HOME: scratch.home, npm_config_cache: join(scratch.root, "npm-cache") },
    },
  )
  if (res.status !== 0) throw new Error(`offline npm install of ${tarball} failed: ${res.stderr}`)
  return dir
}

export interface ProjectOptions {
  endpoint: Endpoint
  files?: Record<string, string>
  plugin?: PluginLoad
  permission?: Record<string, unknown>
  extraConfig?: Record<string, unknown>
  // pre-seed the config folders' dependency install (default true; false only to measure what it saves)
  seed?: boolean
}

export const writeProject = (scratch: Scratch, opts: ProjectOptions) => {
  const dotdir = join(scratch.project, ".opencode")
  mkdirSync(dotdir, { recursive: true })
  for (const [rel, text] of Object.entries(opts.files ?? {})) {
    const file = join(scratch.project, rel)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
  }
  const plugin = opts.plugin ?? { mode: "copy" }
  const pluginEntries: unknown[] = []
  if (plugin.mode === "copy") {
    mkdirSync(join(dotdir, "plugins"), { recursive: true })
    cpSync(plugin.source ?? PLUGIN_SOURCE, join(dotdir, "plugins/ragfaith.ts"))
  } else if (plugin.mode === "file") {
    const href = Bun.pathToFileURL(plugin.source ?? PLUGIN_SOURCE).href
    pluginEntries.push(plugin.options ? [href, plugin.options] : href)
  } else if (plugin.mode === "npm") {
    preinstallNpmPlugin(scratch, packPlugin(plugin.packageDir))
    pluginEntries.push(plugin.options ? [PACKAGE_NAME, plugin.options] : PACKAGE_NAME)
  }
  const config = {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    enabled_providers: ["mock"],
    model: `mock/${AGENT_MODEL}`,
    small_model: `mock/${TITLE_MODEL}`,
    provider: {
      mock: {
        npm: "@ai-sdk/openai-compatible",
        name: "Mock (scripted)",
        options: { baseURL: opts.endpoint.agentBaseURL, apiKey: "mock-key" },
        models: {
          [AGENT_MODEL]: { name: "Scripted", tool_call: true, limit: { context: 200000, output: 4096 } },
          [TITLE_MODEL]: { name: "Title", limit: { context: 200000, output: 1024 } },
          [ROUTE_JUDGE_MODEL]: { name: "Judge", temperature: true, limit: { context: 200000, output: 8192 } },
        },
      },
    },
    permission: opts.permission ?? {
      read: "allow",
      edit: "allow",
      bash: "allow",
      webfetch: "allow",
      task: "allow",
      external_directory: "allow",
    },
    ...(pluginEntries.length ? { plugin: pluginEntries } : {}),
    ...opts.extraConfig,
  }
  writeFileSync(join(dotdir, "opencode.json"), `${JSON.stringify(config, null, 2)}\n`)
  if (opts.seed !== false) {
    seedConfigFolder(dotdir)
    seedConfigFolder(join(scratch.config, "opencode"))
  }
}

// A fake `npm` on PATH so a scripted `npm install x` can never reach a registry.
export const installFakeNpm = (scratch: Scratch) => {
  const file = join(scratch.bin, "npm")
  writeFileSync(file, '#!/bin/sh\necho "fake npm (ragfaith live test): $*"\nexit 0\n', { mode: 0o755 })
  return file
}

// ── Process bookkeeping ─────────────────────────────────────────────────────

// Every opencode started here runs in its own process group. bun test runs no process "exit" handlers, so tests
// call cleanupAll() in afterAll; scripts get it on exit and on SIGINT/SIGTERM.
const running = new Set<ChildProcess>()

// Resolves when the child exits or after `ms`, whichever comes first, without leaving a timer behind (a pending
// timer would keep a finished script alive).
const exitWithin = (child: ChildProcess, ms: number) =>
  new Promise<boolean>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done(true)
    const timer = setTimeout(() => {
      child.removeListener("exit", onExit)
      done(false)
    }, ms)
    const onExit = () => {
      clearTimeout(timer)
      done(true)
    }
    child.once("exit", onExit)
  })

const killGroup = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return
  try {
    process.kill(-child.pid, "SIGTERM")
  } catch {}
  if (!(await exitWithin(child, 5000))) {
    try {
      process.kill(-child.pid, "SIGKILL")
    } catch {}
    await exitWithin(child, 2000)
  }
  // the group leader is gone; sweep anything left in its group
  try {
    process.kill(-child.pid, "SIGKILL")
  } catch {}
}

export const cleanupAll = async () => {
  await Promise.all([...running].map((child) => killGroup(child)))
  running.clear()
  if (packRoot) rmSync(packRoot, { recursive: true, force: true })
  packRoot = null
  packCache.clear()
}

const killAllSync = () => {
  for (const child of running) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL")
    } catch {}
  }
  if (packRoot) rmSync(packRoot, { recursive: true, force: true })
}
process.once("exit", killAllSync)
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    killAllSync()
    process.exit(130)
  })
}

// ── opencode serve ──────────────────────────────────────────────────────────

export interface OcEvent {
  type: string
  // biome-ignore lint/suspicious/noExplicitAny: event payloads are inspected by tests
  properties: any
  at: number
}

export interface StoredPart {
  id: string
  type: string
  text?: string
  synthetic?: boolean
  tool?: string
  // biome-ignore lint/suspicious/noExplicitAny: tool state
  state?: any
  [k: string]: unknown
}

export interface StoredMessage {
  // biome-ignore lint/suspicious/noExplicitAny: message info
  info: { id: string; role: "user" | "assistant"; sessionID: string; [k: string]: any }
  parts: StoredPart[]
}

export interface Opencode {
  url: string
  scratch: Scratch
  endpoint: Endpoint
  events: OcEvent[]
  startupMs: number
  createSession(body?: Record<string, unknown>): Promise<{ id: string; parentID?: string }>
  prompt(sessionID: string, text: string, extra?: Record<string, unknown>): Promise<Response>
  // a slash command, as the TUI sends it (POST /session/:id/command)
  command(sessionID: string, name: string, args?: string): Promise<Response>
  waitQuiet(opts?: { quietMs?: number; timeoutMs?: number }): Promise<void>
  waitFor(pred: () => boolean, timeoutMs?: number, what?: string): Promise<void>
  messages(sessionID: string): Promise<StoredMessage[]>
  sessions(): Promise<Array<{ id: string; parentID?: string; title?: string }>>
  children(sessionID: string): Promise<Array<{ id: string; parentID?: string }>>
  toasts(): Array<{ title?: string; message: string; variant?: string }>
  logs(): string
  stop(): Promise<void>
}

export interface OpencodeOptions extends ProjectOptions {
  env?: Record<string, string>
  scratch?: Scratch
  // keep the scratch folder (for debugging); RFE_LIVE_KEEP=1 does the same
  keep?: boolean
  startTimeoutMs?: number
}

const BUSY_TYPES = new Set(["busy", "retry"])
const QUIET_IGNORED = new Set(["server.heartbeat", "server.connected"])

/**
 * opencode's /event stream (server-sent events), read into `events` as they come, with each session's busy
 * state and when the last event that is not a heartbeat came. `connected` resolves once the stream is open.
 */
export function followEvents(url: string, signal: AbortSignal, t0: number) {
  const events: OcEvent[] = []
  const status = new Map<string, string>()
  let lastEvent = Date.now()
  let open: () => void = () => {}
  const connected = new Promise<void>((resolve) => {
    open = resolve
  })
  const take = (data: string) => {
    const ev = JSON.parse(data) as { type: string; properties: { sessionID?: string; status?: { type: string } } }
    events.push({ type: ev.type, properties: ev.properties, at: Date.now() - t0 })
    if (!QUIET_IGNORED.has(ev.type)) lastEvent = Date.now()
    const { sessionID, status: state } = ev.properties ?? {}
    if (ev.type === "session.status" && sessionID && state) status.set(sessionID, state.type)
    if (ev.type === "session.idle" && sessionID) status.set(sessionID, "idle")
  }
  const done = (async () => {
    try {
      const res = await fetch(`${url}/event`, { signal, headers: { accept: "text/event-stream" } })
      open()
      const reader = res.body?.getReader()
      const decoder = new TextDecoder()
      let buffer = ""
      for (;;) {
        const chunk = await reader?.read()
        if (!chunk || chunk.done) break
        buffer += decoder.decode(chunk.value, { stream: true })
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const data = buffer
            .slice(0, end)
            .split("\n")
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).trimStart())
            .join("\n")
          buffer = buffer.slice(end + 2)
          try {
            if (data) take(data)
          } catch {
            // A line that is not JSON is not an event.
          }
        }
      }
    } catch {
      // The stream ends when the test stops opencode.
    } finally {
      open()
    }
  })()
  return { events, status, lastEvent: () => lastEvent, connected, done }
}

export const readLogs = (scratch: Scratch): string => {
  const dir = join(scratch.data, "opencode/log")
  if (!existsSync(dir)) return ""
  return readdirSync(dir)
    .filter((f) => f.endsWith(".log"))
    .sort()
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("\n")
}

/** The real CLI in the scratch project, in its own process group, its output collected as it arrives. */
const spawnOpencode = (scratch: Scratch, args: string[], env: Record<string, string> = {}) => {
  const child = spawn(OPENCODE_BIN, args, {
    cwd: scratch.project,
    env: {
      PATH: `${scratch.bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      LANG: "C.UTF-8",
      TERM: "dumb",
      ...scratch.env,
      ...env,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  })
  const out = { stdout: "", stderr: "" }
  child.stdout?.on("data", (d) => {
    out.stdout += String(d)
  })
  child.stderr?.on("data", (d) => {
    out.stderr += String(d)
  })
  running.add(child)
  return { child, out }
}

export const startOpencode = async (opts: OpencodeOptions): Promise<Opencode> => {
  const scratch = opts.scratch ?? makeScratch()
  const keep = opts.keep ?? process.env.RFE_LIVE_KEEP === "1"
  writeProject(scratch, opts)
  const port = closedPort()
  const url = `http://127.0.0.1:${port}`
  const t0 = Date.now()
  const { child, out } = spawnOpencode(scratch, ["serve", "--port", String(port), "--hostname", "127.0.0.1"], opts.env)

  const abort = new AbortController()
  const pending = new Set<Promise<unknown>>()

  const stop = async () => {
    abort.abort()
    await killGroup(child)
    running.delete(child)
    await Promise.allSettled([...pending])
    if (!keep) rmSync(scratch.root, { recursive: true, force: true })
  }

  const api = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${url}${path}`, {
      ...init,
      headers: { "content-type": "application/json", ...(init?.headers ?? {}) },
    })
    return res
  }

  // wait for the server
  const deadline = Date.now() + (opts.startTimeoutMs ?? 60000)
  let bannerMs = 0
  let healthRetries = 0
  for (;;) {
    if (child.exitCode !== null) {
      await stop()
      throw new Error(`opencode serve exited with ${child.exitCode}\nstdout: ${out.stdout}\nstderr: ${out.stderr}`)
    }
    // The first request that reaches a freshly listening server can hang, so wait for the banner and time out.
    if (out.stdout.includes("listening on")) {
      bannerMs ||= Date.now() - t0
      try {
        const res = await fetch(`${url}/global/health`, { signal: AbortSignal.timeout(3000) })
        if (res.ok) break
      } catch {
        healthRetries++
      }
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`opencode serve did not start in time\nstdout: ${out.stdout}\nstderr: ${out.stderr}`)
    }
    await sleep(100)
  }

  // record the event stream
  const stream = followEvents(url, abort.signal, t0)
  pending.add(stream.done)
  await stream.connected
  const startupMs = Date.now() - t0
  if (process.env.RFE_LIVE_DEBUG === "1") {
    console.error(`[harness] banner after ${bannerMs} ms, ready after ${startupMs} ms, health retries ${healthRetries}`)
  }

  const { events, status } = stream
  const isBusy = () => [...status.values()].some((s) => BUSY_TYPES.has(s))

  const oc: Opencode = {
    url,
    scratch,
    endpoint: opts.endpoint,
    events,
    startupMs,
    async createSession(body = {}) {
      const res = await api("/session", { method: "POST", body: JSON.stringify(body) })
      if (!res.ok) throw new Error(`POST /session: ${res.status} ${await res.text()}`)
      return (await res.json()) as { id: string; parentID?: string }
    },
    prompt(sessionID, text, extra = {}) {
      status.set(sessionID, "busy")
      const p = api(`/session/${sessionID}/message`, {
        method: "POST",
        body: JSON.stringify({
          parts: [{ type: "text", text }],
          model: { providerID: "mock", modelID: AGENT_MODEL },
          ...extra,
        }),
      })
      pending.add(p.catch(() => undefined))
      return p
    },
    command(sessionID, name, args = "") {
      const p = api(`/session/${sessionID}/command`, {
        method: "POST",
        body: JSON.stringify({ command: name, arguments: args, model: `mock/${AGENT_MODEL}` }),
      })
      pending.add(p.catch(() => undefined))
      return p
    },
    async waitFor(pred, timeoutMs = 30000, what = "condition") {
      const end = Date.now() + timeoutMs
      while (!pred()) {
        if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
        await sleep(50)
      }
    },
    async waitQuiet({ quietMs = 2000, timeoutMs = 45000 } = {}) {
      const end = Date.now() + timeoutMs
      for (;;) {
        const lastActivity = Math.max(stream.lastEvent(), opts.endpoint.lastActivity())
        if (!isBusy() && opts.endpoint.inflight() === 0 && Date.now() - lastActivity >= quietMs) return
        if (Date.now() > end) {
          throw new Error(
            `not quiet after ${timeoutMs} ms (busy=${isBusy()} inflight=${opts.endpoint.inflight()} ` +
              `status=${JSON.stringify([...status])})`,
          )
        }
        await sleep(100)
      }
    },
    async messages(sessionID) {
      const res = await api(`/session/${sessionID}/message`)
      if (!res.ok) throw new Error(`GET /session/${sessionID}/message: ${res.status}`)
      return (await res.json()) as StoredMessage[]
    },
    async sessions() {
      const res = await api("/session")
      return (await res.json()) as Array<{ id: string; parentID?: string; title?: string }>
    },
    async children(sessionID) {
      const res = await api(`/session/${sessionID}/children`)
      return (await res.json()) as Array<{ id: string; parentID?: string }>
    },
    toasts() {
      return events.filter((e) => e.type === "tui.toast.show").map((e) => e.properties)
    },
    logs: () => readLogs(scratch),
    stop,
  }
  return oc
}

// ── Assertion helpers ───────────────────────────────────────────────────────

export const isNotePart = (p: StoredPart) =>
  p.type === "text" && p.synthetic === true && (p.text ?? "").trimStart().startsWith(NOTE_TAG)

export const notesIn = (messages: StoredMessage[]) =>
  messages.filter((m) => m.info.role === "user" && m.parts.some(isNotePart))

export const assistantTexts = (messages: StoredMessage[]) =>
  messages
    .filter((m) => m.info.role === "assistant")
    .map((m) =>
      m.parts
        .filter((p) => p.type === "text")
        .map((p) => p.text ?? "")
        .join(""),
    )
    .filter((t) => t.length > 0)

export const lastUserOf = (req: RecordedRequest): string => agentContext(req.body ?? {}).lastUserText

// What live.test.ts records per scenario (RFE_LIVE_REPORT) and report.ts renders.
export interface ScenarioRecord {
  name: string
  ok: boolean
  seconds: number
  startupSeconds: number
  digest: string[]
  notes: string[]
  /** What the TUI showed, for the TUI scenarios: labelled captures of the pane. */
  screens?: Array<{ label: string; text: string }>
  error?: string
}

// A one-line digest per endpoint request, in the spirit of docs/verification.md.
export const digest = (requests: RecordedRequest[]): string[] =>
  requests.map((r) => {
    const msgs = Array.isArray(r.body?.messages) ? r.body.messages.length : 0
    const ctx = r.kind === "agent" ? agentContext(r.body) : null
    const note = ctx ? (ctx.isNote ? "note=last" : ctx.notes ? `notes=${ctx.notes}` : "note=no") : ""
    let what = ""
    if (r.kind === "judge") {
      const j = readJudgeCall(r.body)
      const a = r.answer as JudgeReply | undefined
      const verdict =
        a && "verdict" in a
          ? a.verdict
          : a && "status" in a
            ? `HTTP ${a.status}`
            : a && "raw" in a
              ? `raw ${JSON.stringify(a.raw.slice(0, 40))}`
              : "garbage body"
      what = `model=${j.model} claim=${JSON.stringify(j.claim.slice(0, 60))} -> ${verdict}`
    } else if (r.kind === "agent") {
      const a = r.answer as AgentAction | undefined
      what =
        a && "tools" in a
          ? `-> tools ${a.tools.map((t) => t.name).join(",")}`
          : `-> text ${JSON.stringify(((a as { text?: string })?.text ?? "").slice(0, 50))}`
    } else if (r.kind === "page") {
      what = `GET ${r.path}`
    }
    return `#${String(r.seq).padStart(2)} ${r.kind.padEnd(6)} bytes=${String(r.bytes).padStart(6)} messages=${String(msgs).padStart(2)} ${note.padEnd(9)} ${what}`.trimEnd()
  })

// ── opencode run (one-shot CLI) ─────────────────────────────────────────────

export interface CliResult {
  code: number | null
  signal: string | null
  stdout: string
  stderr: string
  ms: number
  // wall-clock ms when the process exited
  exitedAt: number
}

// Runs the real CLI in the scratch project, in its own process group, and kills the group when it is done.
export const runCli = (
  scratch: Scratch,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 60000,
): Promise<CliResult> =>
  new Promise((done) => {
    const t0 = Date.now()
    const { child, out } = spawnOpencode(scratch, args, env)
    const timer = setTimeout(() => {
      out.stderr += `\n[harness] timed out after ${timeoutMs} ms`
      void killGroup(child)
    }, timeoutMs)
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      running.delete(child)
      // sweep helpers left in the group (none expected)
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL")
      } catch {}
      done({ code, signal, stdout: out.stdout, stderr: out.stderr, ms: Date.now() - t0, exitedAt: Date.now() })
    })
  })

// `opencode run --format json` prints one JSON event per line; the session id is on every one of them.
export const sessionIdOf = (jsonLines: string): string | undefined => {
  for (const line of jsonLines.split("\n")) {
    try {
      const ev = JSON.parse(line) as { sessionID?: string; part?: { sessionID?: string } }
      const id = ev.sessionID ?? ev.part?.sessionID
      if (id) return id
    } catch {}
  }
  return undefined
}

export const exportSession = async (
  scratch: Scratch,
  sessionID: string,
): Promise<{ info: Record<string, unknown>; messages: StoredMessage[] }> => {
  const res = await runCli(scratch, ["export", sessionID], {}, 30000)
  const start = res.stdout.indexOf("{")
  if (res.code !== 0 || start < 0) throw new Error(`opencode export failed (${res.code}): ${res.stderr}`)
  return JSON.parse(res.stdout.slice(start))
}
