// Live scenarios: the plugin inside the real opencode 1.18.33 (`opencode serve`, and `opencode run` for scenario 10),
// with a scripted agent model and a scripted judge on 127.0.0.1. Each scenario starts its own isolated opencode.
// Skip with RFE_SKIP_LIVE=1. With RFE_LIVE_REPORT=<file>, a JSON record per scenario is written for report.ts.

import { afterAll, describe, expect, test } from "bun:test"
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { JUDGE_PROMPTS } from "../../src/judge/prompt.ts"
import { closedPort, SURVEY_NOTES } from "../support/fixtures.ts"
import { contentText, JUDGE_KEY, type JudgeCall, type JudgeRule, judgeEnv, readJudgeCall } from "../support/judge.ts"
import {
  AGENT_MODEL,
  type AgentScript,
  agentContext,
  assistantTexts,
  type ChatMessage,
  type CliResult,
  cleanupAll,
  digest,
  type Endpoint,
  exportSession,
  installFakeNpm,
  isNotePart,
  makeScratch,
  notesIn,
  npmPluginDir,
  type Opencode,
  type Page,
  type PluginLoad,
  ROUTE_JUDGE_MODEL,
  readLogs,
  runCli,
  type ScenarioRecord,
  type Scratch,
  type StoredMessage,
  seedIntact,
  sessionIdOf,
  startEndpoint,
  startOpencode,
  withFaults,
  writeProject,
} from "./harness.ts"

const SKIP = process.env.RFE_SKIP_LIVE === "1"
const TIMEOUT = 90_000

// ── Fixtures ────────────────────────────────────────────────────────────────

// Paraphrases, so no claim is found word for word in the source (that would skip the judge).
const GOOD_REPLY = "Marxburg serves as the capital city of Freedonia. Three bridges span the Zeppo river in Freedonia."
const BAD_CLAIM = "Seven bridges span the Zeppo river in Freedonia."
const BAD_REPLY = `Marxburg serves as the capital city of Freedonia. ${BAD_CLAIM}`
const FIXED_REPLY = "Three bridges span the Zeppo river in Freedonia."
const PROMPT = "Read facts.txt and tell me about Freedonia"
// The notice the wrong bridge count draws, as the plugin breaks its lines (after "Automatic check: ").
const NOTICE = `"Seven bridges span the Zeppo river in…" conflicts with\nfacts.txt:1-4, which says "3 bridges". Asking the agent to correct it.`

// How the plugin ends a /ragfaith command it answered itself: opencode logs it as an error, it is none.
const COMMAND_HANDLED = "NotAnError: ragfaith answered /ragfaith itself"

const WRONG_RE = /\b(seven|twelve|eleven|[0-9]{2}|7)\b[^.]*bridges?/i

// Cites the first captured source (not the tool-call log "P") whose text mentions `needle`.
const cite = (ctx: JudgeCall, needle = "") =>
  ctx.sources.find((s) => s.id !== "P" && s.text.includes(needle))?.id ?? ctx.sources[0]?.id ?? "S1"

const factJudge: JudgeRule = (ctx) =>
  WRONG_RE.test(ctx.claim)
    ? {
        verdict: "unfaithful",
        source: cite(ctx, "bridges"),
        quote: "Freedonia has 3 bridges over the river Zeppo.",
        reason: "the source says Freedonia has 3 bridges",
      }
    : { verdict: "faithful", source: cite(ctx), reason: "stated in the source" }

const readThenReply =
  (file: string, reply: string, onNote: (notes: number) => string = () => FIXED_REPLY): AgentScript =>
  (c) => {
    if (c.isNote) return { text: onNote(c.notes) }
    if (c.step === 0) return { tools: [{ name: "read", args: { filePath: file } }] }
    return { text: reply }
  }

// ── Scenario runner ─────────────────────────────────────────────────────────

const records: ScenarioRecord[] = []

interface LiveOptions {
  agent: AgentScript
  judge?: JudgeRule
  pages?: Record<string, Page>
  files?: Record<string, string>
  plugin?: PluginLoad | ((ep: Endpoint) => PluginLoad)
  // replaces the default judge env entirely when given (env-less option tests)
  judgeEnv?: (ep: Endpoint) => Record<string, string | undefined>
  env?: Record<string, string>
  // merged into the project's opencode.json (e.g. another small_model)
  extraConfig?: Record<string, unknown>
  prompt?: string
  quietMs?: number
  // an extra condition to wait for after quiet (e.g. a toast after judge retries)
  until?: (oc: Opencode) => boolean
  setup?: (scratch: Scratch) => void
  afterPrompt?: () => void
}

interface LiveRun {
  oc: Opencode
  ep: Endpoint
  sessionID: string
  messages: StoredMessage[]
  scratch: Scratch
  notes: string[]
}

/**
 * The plugin's notices under a reply, as the events carried them: its messages of one ignored part (shown, never
 * sent to the model) that no /ragfaith command asked for, once per part.
 */
const noticesOf = (oc: Opencode) => {
  const parts = new Map<string, string>()
  for (const event of oc.events) {
    const part = event.type === "message.part.updated" ? event.properties?.part : undefined
    if (
      part?.type === "text" &&
      part.ignored === true &&
      /^Automatic check: (?!the (last )?reply|no reply)/.test(part.text)
    )
      parts.set(part.id, part.text)
  }
  return [...parts.values()]
}

/** The last assistant message: a notice of the plugin may follow it. */
const lastReply = (messages: StoredMessage[]) => messages.filter((m) => m.info.role === "assistant").at(-1)

const relevantLog = (oc: Opencode | undefined) =>
  (oc?.logs() ?? "")
    .split("\n")
    .filter((l) => /ragfaith:|level=(ERROR|WARN)|failed to load plugin/.test(l))
    .slice(-40)
    .join("\n")

/** Runs one scenario and records it for the report (RFE_LIVE_REPORT), whether it passes or fails. */
const recorded = async (
  name: string,
  ep: Endpoint,
  notes: string[],
  startupMs: () => number,
  run: () => Promise<void>,
) => {
  const t0 = Date.now()
  let failure: string | undefined
  try {
    await run()
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error)
    throw error
  } finally {
    records.push({
      name,
      ok: failure === undefined,
      seconds: (Date.now() - t0) / 1000,
      startupSeconds: startupMs() / 1000,
      digest: digest(ep.requests),
      notes,
      ...(failure ? { error: failure.slice(0, 4000) } : {}),
    })
  }
}

const live = async (name: string, opts: LiveOptions, check: (run: LiveRun) => Promise<void> | void) => {
  const ep = startEndpoint({ agent: opts.agent, judge: opts.judge ?? factJudge, pages: opts.pages })
  const scratch = makeScratch()
  opts.setup?.(scratch)
  const notes: string[] = []
  let oc: Opencode | undefined
  await recorded(
    name,
    ep,
    notes,
    () => oc?.startupMs ?? 0,
    async () => {
      try {
        oc = await startOpencode({
          endpoint: ep,
          scratch,
          files: opts.files ?? { "facts.txt": SURVEY_NOTES },
          plugin: typeof opts.plugin === "function" ? opts.plugin(ep) : (opts.plugin ?? { mode: "copy" }),
          extraConfig: opts.extraConfig,
          env: {
            ...(opts.judgeEnv ? opts.judgeEnv(ep) : judgeEnv(ep.judgeBaseURL)),
            RFE_JUDGE_LOG: join(scratch.root, "judge-log.jsonl"),
            ...opts.env,
          },
        })
        const session = await oc.createSession()
        const res = await oc.prompt(session.id, opts.prompt ?? PROMPT)
        expect(res.status).toBe(200)
        opts.afterPrompt?.()
        await oc.waitQuiet({ quietMs: opts.quietMs ?? 2000 })
        const until = opts.until
        if (until) {
          const current = oc
          await oc.waitFor(() => until(current), 30000, "the scenario's condition")
          await oc.waitQuiet({ quietMs: 500 })
        }
        const messages = await oc.messages(session.id)
        await check({ oc, ep, sessionID: session.id, messages, scratch, notes })
        // whatever the scenario, the plugin never failed to load and no hook failed (guard logs "ragfaith: <hook> failed")
        const current = oc
        expect(
          current
            .logs()
            .split("\n")
            .filter((l) => l.includes("level=ERROR") && /ragfaith:|plugin/i.test(l) && !l.includes(COMMAND_HANDLED)),
        ).toEqual([])
      } catch (error) {
        if (error instanceof Error) {
          const trail = digest(ep.requests).join("\n")
          error.message += `\n--- endpoint requests ---\n${trail}\n--- opencode log (ragfaith/errors) ---\n${relevantLog(oc)}`
        }
        throw error
      } finally {
        await oc?.stop()
        await ep.stop()
      }
    },
  )
}

/** One live scenario as one test, with the suite's timeout. */
const scenario = (title: string, name: string, opts: LiveOptions, check: (run: LiveRun) => Promise<void> | void) =>
  test(title, () => live(name, opts, check), TIMEOUT)

const judgeBodies = (ep: Endpoint) => ep.byKind("judge").map((r) => JSON.stringify(r.body))
const agentRequests = (ep: Endpoint) => ep.byKind("agent")
const noteTexts = (messages: StoredMessage[]) =>
  notesIn(messages).map((m) =>
    m.parts
      .filter(isNotePart)
      .map((p) => p.text ?? "")
      .join("\n"),
  )

afterAll(async () => {
  await cleanupAll()
  const out = process.env.RFE_LIVE_REPORT
  if (out) writeFileSync(out, `${JSON.stringify(records, null, 2)}\n`)
})

// ── Scenarios ───────────────────────────────────────────────────────────────

describe.skipIf(SKIP)("live: ragfaith inside opencode serve", () => {
  scenario(
    "1. faithful reply after a read: judge calls, no note, no extra agent turn",
    "1 faithful",
    { agent: readThenReply("facts.txt", GOOD_REPLY) },
    ({ ep, messages, scratch, notes }) => {
      const judged = ep.byKind("judge")
      expect(judged.length).toBeGreaterThanOrEqual(1)
      for (const r of judged) {
        expect(r.authorization).toBe(`Bearer ${JUDGE_KEY}`)
        expect(r.body.model).toBe("judge-main")
        expect(r.body.temperature).toBe(0)
        expect(r.body.reasoning).toEqual({ exclude: true })
        expect(r.body.max_tokens).toBe(256)
        expect(readJudgeCall(r.body).userContent).toContain("Freedonia has 3 bridges")
      }
      expect(agentRequests(ep).length).toBe(2)
      expect(notesIn(messages).length).toBe(0)
      // the token log: one line per judge request, with no claim text
      const logFile = join(scratch.root, "judge-log.jsonl")
      const lines = existsSync(logFile) ? readFileSync(logFile, "utf8").trim().split("\n").filter(Boolean) : []
      expect(lines.length).toBe(judged.length)
      for (const line of lines) expect(line).not.toContain("Marxburg")
      // opencode never ran its own dependency install: the seeded config folders are untouched
      expect(seedIntact(scratch)).toBe(true)
      notes.push(`judge requests: ${judged.length}; token log lines: ${lines.length}; first: ${lines[0] ?? ""}`)
    },
  )

  scenario(
    "2. one unfaithful claim: exactly one note, citing the file, and an immediate correction turn",
    "2 one note",
    { agent: readThenReply("facts.txt", BAD_REPLY) },
    ({ ep, messages, notes }) => {
      const texts = noteTexts(messages)
      expect(texts.length).toBe(1)
      const note = texts[0] ?? ""
      expect(note.startsWith("[ragfaith]")).toBe(true)
      expect(note).toContain(BAD_CLAIM)
      expect(note).toContain("facts.txt")
      expect(note).not.toContain("Marxburg serves")
      // the correction request: the agent's third request, whose last user message is the note
      const agents = agentRequests(ep)
      expect(agents.length).toBe(3)
      const rec = agentContext(agents[2]?.body ?? {})
      expect(rec.isNote).toBe(true)
      // the model gets the instruction first, then the short notice the user sees (the instruction says it needs no answer)
      expect(rec.lastUserText.startsWith(note)).toBe(true)
      expect(rec.lastUserText).toContain(`Automatic check: ${NOTICE}`)
      // it ran as the user's agent and model
      const noteMessage = notesIn(messages)[0]
      expect(noteMessage?.info.agent).toBe("build")
      expect(noteMessage?.info.model).toEqual({ providerID: "mock", modelID: "scripted" })
      // the correction reply is stored and was judged again (verification round): no second note
      expect(assistantTexts(messages).at(-1)).toBe(FIXED_REPLY)
      expect(ep.byKind("judge").some((r) => readJudgeCall(r.body).claim === FIXED_REPLY)).toBe(true)
      // the same message carries the line a person sees: a plain (not synthetic) part naming the claim and the file
      const marker = noteMessage?.parts.find((p) => p.type === "text" && !p.synthetic)?.text ?? ""
      // it names the wrong part: the source's "3 bridges" in place of the reply's seven
      expect(marker).toBe(`Automatic check: ${NOTICE}`)
      expect(marker).toContain(BAD_CLAIM.slice(0, 30))
      notes.push(`note text:\n${note}`, `visible line: ${marker}`)
    },
  )

  scenario(
    "3. a judge that always says unfaithful: exactly RFE_NUDGE_DEPTH (2) notes, then silence",
    "3 depth bound",
    {
      agent: readThenReply("facts.txt", BAD_CLAIM, (n) => `Freedonia has ${10 + n} bridges according to my notes.`),
      judge: (ctx) => ({
        verdict: "unfaithful",
        source: cite(ctx),
        quote: "Freedonia has 3 bridges",
        reason: "contradicted",
      }),
      env: { RFE_NUDGE_DEPTH: "2" },
      quietMs: 3000,
    },
    ({ ep, messages, notes }) => {
      expect(notesIn(messages).length).toBe(2)
      const agents = agentRequests(ep)
      // read, reply, correction 1, correction 2
      expect(agents.length).toBe(4)
      expect(agentContext(agents[3]?.body ?? {}).notes).toBe(2)
      const claims = ep.byKind("judge").map((r) => readJudgeCall(r.body).claim)
      // the reply to the second note is not judged: the depth is used up
      expect(claims).not.toContain("Freedonia has 12 bridges according to my notes.")
      expect(claims).toContain("Freedonia has 11 bridges according to my notes.")
      notes.push(`judged claims: ${JSON.stringify(claims)}`)
    },
  )

  test(
    "4. strict mode, unverifiable claim: note with the provenance request",
    async () => {
      const reply = "Marxburg serves as the capital city of Freedonia. Freedonia was founded in 1822 by river traders."
      await live(
        "4 strict provenance",
        {
          agent: readThenReply(
            "facts.txt",
            reply,
            () => "The survey notes do not give a founding date; the year 1822 comes from my own knowledge.",
          ),
          judge: (ctx) =>
            /founded/.test(ctx.claim)
              ? { verdict: "unverifiable", reason: "no source mentions the founding" }
              : { verdict: "faithful", source: cite(ctx), reason: "stated in the source" },
          env: { RFE_STRICTNESS: "strict" },
        },
        ({ messages, notes }) => {
          const texts = noteTexts(messages)
          expect(texts.length).toBe(1)
          const note = texts[0] ?? ""
          expect(note).toContain("founded in 1822")
          expect(note).toMatch(/cite the source/i)
          expect(note).toMatch(/own knowledge|inference/i)
          notes.push(`note text:\n${note}`)
        },
      )
    },
    TIMEOUT,
  )

  scenario(
    "5. no premises: a reply without any tool call is never judged",
    "5 no premises",
    {
      agent: () => ({ text: "Freedonia is a small republic with a long coastline." }),
      prompt: "Tell me about Freedonia",
    },
    ({ ep, messages }) => {
      expect(ep.byKind("judge").length).toBe(0)
      expect(agentRequests(ep).length).toBe(1)
      expect(notesIn(messages).length).toBe(0)
    },
  )

  test(
    "6. secrets in a read file and a .env file never reach the judge",
    async () => {
      const pick = (n: number, alphabet: string) =>
        Array.from({ length: n }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join("")
      const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
      const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
      const B64 = `${ALNUM}+/`
      // Built at run time so no secret-shaped literal sits in the repository.
      const github = `ghp_${pick(36, ALNUM)}`
      const aws = `AKIA${pick(16, UPPER)}`
      const openai = `sk-${pick(48, ALNUM)}`
      const pemBody = Array.from({ length: 4 }, () => pick(64, B64))
      const pemKind = ["RSA", "PRIVATE", "KEY"].join(" ")
      const pem = [`-----BEGIN ${pemKind}-----`, ...pemBody, `-----END ${pemKind}-----`].join("\n")
      const envMarker = `envmarker${pick(20, ALNUM)}`
      const envPassword = `pw-${pick(24, ALNUM)}`
      const deploy = [
        "Deployment notes.",
        "Production runs in the Marxburg region on 3 nodes.",
        `GitHub token: ${github}`,
        `aws_access_key_id = ${aws}`,
        `OPENAI key ${openai}`,
        pem,
        "",
      ].join("\n")
      const dotenv = `APP_MARKER=${envMarker}\nDATABASE_PASSWORD=${envPassword}\n`
      const secrets = { github, aws, openai, pemLine: pemBody[1] ?? "", envMarker, envPassword }
      await live(
        "6 secrets",
        {
          files: { "deploy.md": deploy, ".env": dotenv },
          agent: (c) => {
            if (c.step === 0) return { tools: [{ name: "read", args: { filePath: "deploy.md" } }] }
            if (c.step === 1) return { tools: [{ name: "read", args: { filePath: ".env" } }] }
            return { text: "The production deployment lives in the Marxburg region and uses three nodes." }
          },
          prompt: "Read deploy.md and .env and summarise the deployment",
        },
        ({ ep, messages, notes }) => {
          // both reads really happened, and the agent itself saw the secrets (the plugin does not alter tool output)
          const reads = messages.flatMap((m) => m.parts).filter((p) => p.type === "tool" && p.tool === "read")
          expect(reads.map((p) => p.state?.status)).toEqual(["completed", "completed"])
          const agentSaw = agentRequests(ep)
            .map((r) => JSON.stringify(r.body))
            .join("\n")
          expect(agentSaw).toContain(github)
          expect(agentSaw).toContain(envMarker)
          const bodies = judgeBodies(ep)
          expect(bodies.length).toBeGreaterThanOrEqual(1)
          for (const body of bodies) {
            for (const [label, secret] of Object.entries(secrets)) {
              if (body.includes(secret)) throw new Error(`${label} reached the judge`)
            }
            expect(body).not.toContain("BEGIN RSA PRIVATE KEY-----\\n")
            expect(body).not.toContain("DATABASE_PASSWORD")
          }
          expect(bodies.join("\n")).toContain("Marxburg region")
          const redacted = bodies.some((b) => b.includes("[REDACTED]"))
          notes.push(
            `judge requests: ${bodies.length}; none holds any of ${Object.keys(secrets).join(", ")}; ` +
              `[REDACTED] present: ${redacted}; .env text absent: true`,
          )
        },
      )
    },
    TIMEOUT,
  )

  scenario(
    "7a. flaky judge (429, 500, then 200): the verdict still arrives and the note follows",
    "7a flaky judge",
    {
      agent: readThenReply("facts.txt", BAD_CLAIM),
      judge: withFaults([429, 500], factJudge),
      quietMs: 2500,
    },
    ({ ep, messages, notes }) => {
      const statuses = ep.byKind("judge").map((r) => r.status)
      expect(statuses.slice(0, 3)).toEqual([429, 500, 200])
      expect(noteTexts(messages).length).toBe(1)
      expect(agentContext(agentRequests(ep).at(-1)?.body ?? {}).isNote).toBe(true)
      const at = ep.byKind("judge").map((r) => r.at)
      notes.push(`judge statuses ${JSON.stringify(statuses)} at ms ${JSON.stringify(at)}`)
    },
  )

  test(
    "7b. judge down (closed port): the session completes, one notice under the reply and no toast, no crash",
    async () => {
      const closed = closedPort()
      await live(
        "7b judge down",
        {
          agent: readThenReply("facts.txt", BAD_REPLY),
          judgeEnv: (ep) => judgeEnv(ep.judgeBaseURL, { RFE_JUDGE_BASE_URL: `http://127.0.0.1:${closed}/judge/v1` }),
          until: (oc) => noticesOf(oc).length > 0,
        },
        async ({ oc, ep, messages, notes }) => {
          expect(ep.byKind("judge").length).toBe(0)
          expect(notesIn(messages).length).toBe(0)
          expect(assistantTexts(messages).at(-1)).toBe(BAD_REPLY)
          // the last reply, the notice under it aside
          const last = lastReply(messages)?.info
          expect(last?.finish).toBe("stop")
          expect(last?.error).toBeUndefined()
          const told = noticesOf(oc)
          expect(told.length).toBe(1)
          expect(told[0]).toContain("the judge is unreachable since")
          expect(oc.toasts().filter((t) => t.title === "ragfaith")).toEqual([])
          expect(JSON.stringify(told)).not.toContain(JUDGE_KEY)
          // still alive and serving
          expect((await fetch(`${oc.url}/global/health`)).ok).toBe(true)
          notes.push(`notice: ${JSON.stringify(told[0])}`)
        },
      )
    },
    TIMEOUT,
  )

  scenario(
    "7c. judge answers 401: no retry, the session completes, one notice naming the variable, without the key",
    "7c judge 401",
    {
      agent: readThenReply("facts.txt", BAD_REPLY),
      judge: () => ({ status: 401, body: JSON.stringify({ error: { message: "invalid api key" } }) }),
      until: (oc) => noticesOf(oc).length > 0,
    },
    ({ oc, ep, messages, notes }) => {
      const judged = ep.byKind("judge")
      expect(judged.length).toBeGreaterThanOrEqual(1)
      // fail fast: never more requests than claims (2), i.e. no retries
      expect(judged.length).toBeLessThanOrEqual(2)
      expect(notesIn(messages).length).toBe(0)
      expect(lastReply(messages)?.info.finish).toBe("stop")
      const told = noticesOf(oc)
      expect(told.length).toBe(1)
      expect(told[0]?.replace(/\s+/g, " ")).toContain("check RFE_JUDGE_API_KEY")
      expect(oc.toasts().filter((t) => t.title === "ragfaith")).toEqual([])
      expect(JSON.stringify(told)).not.toContain(JUDGE_KEY)
      expect(oc.logs()).not.toContain(JUDGE_KEY)
      notes.push(`judge requests: ${judged.length}; notice: ${JSON.stringify(told[0])}`)
    },
  )

  test(
    "7d. slow judge (2.5 s per answer): the turn is not held up, the note comes when the verdict does",
    async () => {
      let promptDone = 0
      await live(
        "7d slow judge",
        {
          agent: readThenReply("facts.txt", BAD_CLAIM),
          judge: (ctx) => ({ ...factJudge(ctx), delayMs: 2500 }),
          quietMs: 2000,
          afterPrompt: () => {
            promptDone = Date.now()
          },
        },
        ({ ep, messages, notes }) => {
          const first = ep.byKind("judge")[0]
          expect(first).toBeDefined()
          // the user's turn had finished (prompt returned) before the judge even answered
          expect(promptDone).toBeLessThan(first?.endedAt ?? 0)
          expect((first?.endedAt ?? 0) - (first?.startedAt ?? 0)).toBeGreaterThanOrEqual(2400)
          expect(noteTexts(messages).length).toBe(1)
          notes.push(
            `prompt returned ${(first?.endedAt ?? 0) - promptDone} ms before the first verdict; ` +
              `judge latency ${(first?.endedAt ?? 0) - (first?.startedAt ?? 0)} ms`,
          )
        },
      )
    },
    TIMEOUT,
  )

  scenario(
    "7e. unreadable judge answers: one retry with max_tokens 512, then unverifiable; no note in normal mode",
    "7e unparseable judge",
    {
      agent: readThenReply("facts.txt", BAD_CLAIM),
      judge: () => ({ raw: "Honestly I cannot tell." }),
    },
    ({ ep, messages, notes }) => {
      const judged = ep.byKind("judge")
      expect(judged.map((r) => r.body.max_tokens)).toEqual([256, 512])
      expect(notesIn(messages).length).toBe(0)
      expect(lastReply(messages)?.info.finish).toBe("stop")
      notes.push(`max_tokens per request: ${JSON.stringify(judged.map((r) => r.body.max_tokens))}`)
    },
  )

  test(
    "8. a subagent (task tool) session never gets a note",
    async () => {
      const subtask = "SUBTASK: read facts.txt and report the number of bridges"
      await live(
        "8 subagent",
        {
          agent: (c) => {
            if (c.firstUserText.startsWith("SUBTASK")) {
              if (c.step === 0) return { tools: [{ name: "read", args: { filePath: "facts.txt" } }] }
              return { text: BAD_CLAIM }
            }
            if (c.isNote) return { text: FIXED_REPLY }
            if (c.step === 0) {
              return {
                tools: [
                  {
                    name: "task",
                    args: { description: "Count bridges", prompt: subtask, subagent_type: "general" },
                  },
                ],
              }
            }
            return { text: "The helper agent finished reading the survey notes." }
          },
          prompt: "Ask a helper to check the bridges of Freedonia",
          quietMs: 2500,
        },
        async ({ oc, ep, sessionID, messages, notes }) => {
          const children = await oc.children(sessionID)
          expect(children.length).toBe(1)
          const child = children[0]
          expect(child?.parentID).toBe(sessionID)
          const childMessages = await oc.messages(child?.id ?? "")
          expect(assistantTexts(childMessages)).toContain(BAD_CLAIM)
          expect(notesIn(childMessages).length).toBe(0)
          expect(notesIn(messages).length).toBe(0)
          // the child's claim never went to the judge, and no agent request answered a note
          const claims = ep.byKind("judge").map((r) => readJudgeCall(r.body).claim)
          expect(claims).not.toContain(BAD_CLAIM)
          expect(agentRequests(ep).some((r) => agentContext(r.body).isNote)).toBe(false)
          notes.push(`child ${child?.id} parentID=${child?.parentID}; judged claims: ${JSON.stringify(claims)}`)
        },
      )
    },
    TIMEOUT,
  )

  scenario(
    "9a. doc-pull: `npm install leftpad-x` without fetched docs raises a toast",
    "9a doc-pull toast",
    {
      setup: (scratch) => installFakeNpm(scratch),
      agent: (c) => {
        if (c.step === 0) {
          return {
            tools: [{ name: "bash", args: { command: "npm install leftpad-x", description: "Install leftpad-x" } }],
          }
        }
        return { text: "I installed leftpad-x for string padding." }
      },
      prompt: "Add a padding library",
      until: (oc) => oc.toasts().some((t) => t.message.includes("leftpad-x")),
    },
    ({ oc, messages, notes }) => {
      const bash = messages.flatMap((m) => m.parts).find((p) => p.type === "tool" && p.tool === "bash")
      // the PATH-shadowed fake npm ran, not a real one
      expect(String(bash?.state?.output ?? "")).toContain("fake npm (ragfaith live test): install leftpad-x")
      const toast = oc.toasts().find((t) => t.message.includes("leftpad-x"))
      expect(toast?.message).toBe("No docs for leftpad-x were read in this session: the agent may be guessing its API.")
      notes.push(`toast: ${JSON.stringify(toast)}`)
    },
  )

  test(
    "9b. doc-pull: with the package's docs fetched first (webfetch), no doc-pull toast",
    async () => {
      const docs: Page = {
        contentType: "text/html; charset=utf-8",
        body: "<html><body><h1>leftpad-x</h1><p>leftpad-x pads strings on the left. Install: npm install leftpad-x</p></body></html>",
      }
      await live(
        "9b doc-pull fetched",
        {
          setup: (scratch) => installFakeNpm(scratch),
          pages: { "/docs/leftpad-x": docs },
          agent: (c) => {
            if (c.step === 0) {
              return {
                tools: [{ name: "webfetch", args: { url: `${c.endpointURL}/docs/leftpad-x`, format: "markdown" } }],
              }
            }
            if (c.step === 1) {
              return {
                tools: [{ name: "bash", args: { command: "npm install leftpad-x", description: "Install leftpad-x" } }],
              }
            }
            return { text: "leftpad-x pads strings on the left and is now installed." }
          },
          prompt: "Read the leftpad-x docs, then add it",
        },
        ({ oc, ep, messages, notes }) => {
          expect(ep.byKind("page").length).toBe(1)
          const fetchPart = messages.flatMap((m) => m.parts).find((p) => p.type === "tool" && p.tool === "webfetch")
          expect(fetchPart?.state?.status).toBe("completed")
          expect(oc.toasts().filter((t) => t.message.includes("doc-pull")).length).toBe(0)
          notes.push(`webfetch status: ${fetchPart?.state?.status}; toasts: ${JSON.stringify(oc.toasts())}`)
        },
      )
    },
    TIMEOUT,
  )
})

describe.skipIf(SKIP)("live: what the user asks and sees", () => {
  scenario(
    "11. `/ragfaith` after a flagged reply: the plugin answers with a report, the model gets no request",
    "11 /ragfaith report",
    { agent: readThenReply("facts.txt", BAD_REPLY) },
    async ({ oc, ep, sessionID, notes }) => {
      const before = agentRequests(ep).length
      const judgedBefore = ep.byKind("judge").length
      const res = await oc.command(sessionID, "ragfaith")
      await oc.waitQuiet({ quietMs: 1500 })
      // the plugin throws after answering, so opencode never runs the command's template: no model turn at all
      expect(agentRequests(ep).length).toBe(before)
      expect(ep.byKind("judge").length).toBe(judgedBefore)
      const after = await oc.messages(sessionID)
      const report = after.at(-1)
      expect(report?.info.role).toBe("user")
      const part = report?.parts.find((p) => p.type === "text")
      // `ignored`: shown to the user, never sent to the model
      expect(part?.ignored).toBe(true)
      const text = (part?.text ?? "").replace(/\s+/g, " ")
      expect(text).toContain("Seven bridges span the Zeppo river")
      expect(text).toContain("facts.txt")
      expect(text).toContain("Freedonia has 3 bridges over the river Zeppo")
      // the next real turn does not carry the report to the model
      notes.push(`POST /command: HTTP ${res.status}`, `report:\n${part?.text ?? ""}`)
    },
  )

  // A judge that is wrong about a right statement until it sees the source the agent cites for it.
  const KEPT = "Three bridges span the Zeppo river in Freedonia (source: facts.txt)."
  const wrongJudge: JudgeRule = (ctx) =>
    /three bridges/i.test(ctx.claim) && !/\(source:/.test(ctx.claim)
      ? {
          verdict: "unfaithful",
          source: cite(ctx, "bridges"),
          quote: "Freedonia has 3 bridges over the river Zeppo.",
          reason: "the judge misreads the count",
        }
      : { verdict: "faithful", source: cite(ctx, "bridges"), reason: "stated in the cited file" }
  scenario(
    "11c. a wrong judge, and the agent keeps the statement citing its source: no second note; disputed and upheld",
    "11c agent dispute upheld",
    { agent: readThenReply("facts.txt", GOOD_REPLY, () => KEPT), judge: wrongJudge, quietMs: 3000 },
    async ({ oc, ep, sessionID, messages, notes }) => {
      const texts = noteTexts(messages)
      expect(texts.length).toBe(1)
      // the note told the agent how to keep a right statement
      expect(texts[0]).toContain("keep it: write it again as it was, ending with the file or URL that supports it")
      expect(assistantTexts(messages).at(-1)).toBe(KEPT)
      // the verification round judged the kept statement with its citation, and found it faithful
      const claims = ep.byKind("judge").map((r) => readJudgeCall(r.body).claim)
      expect(claims).toContain(KEPT)
      // the same statement again in a later turn: not flagged in this session
      await oc.command(sessionID, "ragfaith")
      await oc.waitQuiet({ quietMs: 1500 })
      const report = (await oc.messages(sessionID)).at(-1)?.parts.find((p) => p.ignored)?.text ?? ""
      const flat = report.replace(/\s+/g, " ")
      expect(flat).toContain("Disputed by the agent, citing facts.txt, and upheld.")
      expect(flat).toContain("1 dispute by the agent upheld")
      await oc.prompt(sessionID, "Tell me about Freedonia again")
      await oc.waitQuiet({ quietMs: 3000 })
      expect(notesIn(await oc.messages(sessionID)).length).toBe(1)
      notes.push(`judged claims: ${JSON.stringify(claims)}`, `report:\n${report}`)
    },
  )

  scenario(
    "11b. `/ragfaith off`: later replies are not judged until `/ragfaith on`",
    "11b /ragfaith off",
    { agent: readThenReply("facts.txt", GOOD_REPLY) },
    async ({ oc, ep, sessionID, notes }) => {
      await oc.command(sessionID, "ragfaith", "off")
      await oc.waitQuiet({ quietMs: 1000 })
      const judged = ep.byKind("judge").length
      await oc.prompt(sessionID, "Read facts.txt again and summarise it")
      await oc.waitQuiet({ quietMs: 2000 })
      expect(ep.byKind("judge").length).toBe(judged)
      await oc.command(sessionID, "ragfaith", "on")
      await oc.waitQuiet({ quietMs: 1000 })
      await oc.prompt(sessionID, "Read facts.txt once more and summarise it")
      await oc.waitQuiet({ quietMs: 2000 })
      expect(ep.byKind("judge").length).toBeGreaterThan(judged)
      const reports = (await oc.messages(sessionID)).filter((m) => m.parts.some((p) => p.ignored === true))
      expect(reports.length).toBe(2)
      notes.push(
        `judge requests: ${judged} before off, the same while off, ${ep.byKind("judge").length} after on`,
        ...reports.map((m) => `answer: ${m.parts.find((p) => p.ignored)?.text ?? ""}`),
      )
    },
  )

  // RFE_READ_NAMED: the agent answers from memory about a file it never read, with no tool call at all.
  const NET_TS = [
    "/** How many times a request is tried in all. */",
    "export const MAX_ATTEMPTS = 3",
    "",
    "/** Tries `fn` again after a fixed pause of 250 ms, up to MAX_ATTEMPTS times in all. */",
    "export async function retry<T>(fn: () => Promise<T>): Promise<T> {",
    "  for (let attempt = 1; ; attempt++) {",
    "    try {",
    "      return await fn()",
    "    } catch (error) {",
    "      if (attempt >= MAX_ATTEMPTS) throw error",
    "      await new Promise((resolve) => setTimeout(resolve, 250))",
    "    }",
    "  }",
    "}",
  ].join("\n")
  const FROM_MEMORY = "`retry()` in `src/net.ts` backs off exponentially, up to 5 attempts."
  const CORRECTED = "`retry()` in `src/net.ts` tries at most 3 times, with a fixed pause of 250 ms between tries."
  scenario(
    "13. RFE_READ_NAMED: a false claim about a file the agent never read; the plugin reads it, the agent reads it and corrects itself",
    "13 read named file",
    {
      prompt: "How does retry in src/net.ts behave? Answer from memory.",
      files: { "src/net.ts": NET_TS, ".gitignore": "dist/\n" },
      env: { RFE_READ_NAMED: "1" },
      agent: (c) => {
        if (!c.isNote) return { text: FROM_MEMORY }
        if (c.step === 0) return { tools: [{ name: "read", args: { filePath: "src/net.ts" } }] }
        return { text: CORRECTED }
      },
      judge: (ctx) => {
        const file = ctx.sources.find((s) => s.text.includes("MAX_ATTEMPTS = 3"))
        if (file && /5 attempts/.test(ctx.claim)) {
          return { verdict: "unfaithful", source: file.id, quote: "export const MAX_ATTEMPTS = 3", reason: "3 tries" }
        }
        return file
          ? { verdict: "faithful", source: file.id, quote: "a fixed pause of 250 ms" }
          : { verdict: "unverifiable", reason: "no source" }
      },
      quietMs: 3000,
      // The first reply's idle, then the correction turn's.
      until: (oc) => oc.events.filter((e) => e.type === "session.idle").length >= 2,
    },
    ({ ep, messages, notes }) => {
      const judged = ep.byKind("judge").map((r) => readJudgeCall(r.body))
      // The first reply: judged against the file the plugin read itself, labelled so.
      const first = judged.find((call) => /5 attempts/.test(call.claim))
      expect(first?.userContent).toContain('read by the check"')
      expect(first?.userContent).toContain("2: export const MAX_ATTEMPTS = 3")
      const texts = noteTexts(messages)
      expect(texts.length).toBe(1)
      const note = texts[0] ?? ""
      expect(note).toContain("[source: src/net.ts:1-14, read by the check]")
      expect(note).toContain("You did not read `src/net.ts` in this session")
      // The answer from memory, then the correction turn: the agent reads the file, then answers.
      const agents = agentRequests(ep)
      expect(agents.length).toBe(3)
      expect(agentContext(agents[1]?.body ?? {}).isNote).toBe(true)
      const afterRead = agentContext(agents[2]?.body ?? {})
      expect(afterRead.isNote).toBe(true)
      expect(afterRead.toolOutputs.join("\n")).toContain("MAX_ATTEMPTS = 3")
      expect(assistantTexts(messages).at(-1)).toBe(CORRECTED)
      // The correction was judged against the agent's own read, which the check no longer reads for it.
      const fixed = judged.find((call) => /at most 3 times/.test(call.claim))
      expect(fixed?.userContent).toContain("export const MAX_ATTEMPTS = 3")
      expect(fixed?.userContent).not.toContain("read by the check")
      notes.push(`note text:\n${note}`, `judged claims: ${JSON.stringify(judged.map((call) => call.claim))}`)
    },
  )
})

// No RFE_JUDGE_* at all: the judge runs through opencode's own provider, on the small model (here the mock's
// "judge" model, as small_model), in hidden sessions of the plugin's own agent.
const routeOptions = (rest: Partial<LiveOptions> = {}): LiveOptions => ({
  agent: readThenReply("facts.txt", BAD_REPLY),
  judgeEnv: () => ({}),
  extraConfig: { small_model: `mock/${ROUTE_JUDGE_MODEL}` },
  ...rest,
})

// The plugin's notices of a failed judge, without the advice it gives once of which model judges.
const warningsOf = (oc: Opencode) => noticesOf(oc).filter((text) => !text.includes("one of your models"))

describe.skipIf(SKIP)("live: the judge through opencode's providers (no judge key)", () => {
  scenario(
    "12a. no judge key: judged on the small model through opencode; the judge prompt alone, no tools, no session left",
    "12a judge route",
    routeOptions({ until: (oc) => noticesOf(oc).length > 0 }),
    async ({ oc, ep, sessionID, messages, notes }) => {
      const judged = ep.byKind("judge")
      expect(judged.length).toBeGreaterThanOrEqual(2)
      // the first opinion is the small model's; a second opinion goes to another of the user's models
      expect(judged[0]?.body.model).toBe(ROUTE_JUDGE_MODEL)
      for (const r of judged) {
        expect(r.route).toBe(true)
        expect(r.body.model).not.toBe(AGENT_MODEL)
        // a judge session asked for no title: a title request would carry the judge prompt without a claim
        expect(readJudgeCall(r.body).claim).not.toBe("")
        // the judge agent denies every tool: the request has no tools at all
        expect(r.body.tools).toBeUndefined()
        const systems = (r.body.messages as Array<{ role: string }>).filter((m) => m.role === "system")
        expect(systems.length).toBe(1)
        expect(r.body.max_tokens).toBe(256)
        // opencode sends a temperature only to models that declare one (the mock's "title" model does not)
        if (r.body.model === ROUTE_JUDGE_MODEL) expect(r.body.temperature).toBe(0)
        // no AGENTS.md, no environment block: the system message is the judge prompt and nothing else
        expect(Object.values(JUDGE_PROMPTS)).toContain(contentText((systems[0] as ChatMessage).content))
      }
      // the agent's own model never judged; the one title request is the user's session's
      expect(agentRequests(ep).every((r) => r.body.model === AGENT_MODEL)).toBe(true)
      expect(ep.byKind("title").length).toBe(1)
      // the flag went through as with a direct judge: one note, then the correction
      expect(noteTexts(messages).length).toBe(1)
      expect(assistantTexts(messages).at(-1)).toBe(FIXED_REPLY)
      // every judge session was deleted after its answer
      const left = await oc.sessions()
      expect(left.map((s) => s.id)).toEqual([sessionID])
      // said once, under the reply and not in a toast: which model judges and how to choose another
      expect(noticesOf(oc).map((text) => text.replace(/\s+/g, " "))).toEqual([
        "Automatic check: the judge is mock/judge, one of your models; RFE_JUDGE_MAIN_MODEL picks another.",
      ])
      expect(oc.toasts().filter((t) => t.title === "ragfaith")).toEqual([])
      const bytes = judged.map((r) => r.bytes)
      notes.push(
        `judge requests through opencode: ${judged.length}, ${Math.min(...bytes)}–${Math.max(...bytes)} B each; ` +
          `title requests: ${ep.byKind("title").length}; sessions left: ${left.length}`,
      )
    },
  )

  scenario(
    "12b. route, the provider answers 500: cut short at opencode's first retry, the session works, one notice",
    "12b route 500",
    routeOptions({
      judge: () => ({ status: 500 }),
      until: (oc) => warningsOf(oc).length > 0,
    }),
    async ({ oc, ep, sessionID, messages, notes }) => {
      expect(ep.byKind("judge").length).toBeGreaterThanOrEqual(1)
      expect(lastReply(messages)?.info.finish).toBe("stop")
      expect(assistantTexts(messages).at(-1)).toBe(BAD_REPLY)
      expect(notesIn(messages).length).toBe(0)
      // the plugin aborts a judge session when opencode starts retrying, so opencode reports no error for it
      const errors = oc.events.filter((e) => e.type === "session.error")
      expect(errors).toEqual([])
      const told = warningsOf(oc)
      expect(told.length).toBe(1)
      expect((await oc.sessions()).map((s) => s.id)).toEqual([sessionID])
      notes.push(
        `judge requests: ${ep.byKind("judge").length}; session.error events: ${errors.length}; notice: ${JSON.stringify(told[0])}`,
      )
    },
  )

  scenario(
    "12c. route, the provider refuses the key (401): the user's session keeps working, one notice, opencode's red toasts taken off",
    "12c route 401",
    routeOptions({
      judge: () => ({ status: 401, body: JSON.stringify({ error: { message: "invalid api key" } }) }),
      until: (oc) => warningsOf(oc).length > 0,
    }),
    async ({ oc, ep, sessionID, messages, notes }) => {
      expect(ep.byKind("judge").length).toBeLessThanOrEqual(2)
      expect(lastReply(messages)?.info.finish).toBe("stop")
      expect(notesIn(messages).length).toBe(0)
      const told = warningsOf(oc)
      expect(told.length).toBe(1)
      expect(told[0]).toContain("refused")
      // opencode itself reports the provider's refusal for the judge session (a red toast in the TUI); each is
      // followed by the plugin's toast of 1 ms, which takes it off the screen
      const errors = oc.events.filter((e) => e.type === "session.error")
      expect(errors.every((e) => e.properties?.sessionID !== sessionID)).toBe(true)
      const dismissals = oc.toasts().filter((t) => t.message.trim() === "")
      expect(dismissals.length).toBe(errors.length)
      expect((await oc.sessions()).map((s) => s.id)).toEqual([sessionID])
      // and the user's session still answers
      const res = await oc.prompt(sessionID, "Thanks. Anything else?")
      expect(res.status).toBe(200)
      notes.push(
        `judge requests: ${ep.byKind("judge").length}; session.error events (judge sessions): ${errors.length}, ` +
          `each followed by a 1 ms toast; notice: ${JSON.stringify(told[0])}`,
      )
    },
  )
})

describe.skipIf(SKIP)("live: opencode run", () => {
  // `opencode run` exits at the first idle. The README: no note is injected in run mode; the judgment that began at
  // idle may finish during dispose (at most RFE_FLUSH_TIMEOUT_MS), and flagged claims go to the opencode log and,
  // with RFE_JUDGE_LOG=stderr, to stderr.
  const runMode = async (
    name: string,
    judge: JudgeRule,
    check: (res: CliResult, notes: string[], ep: Endpoint) => void,
  ) => {
    const ep = startEndpoint({ agent: readThenReply("facts.txt", BAD_REPLY), judge })
    const scratch = makeScratch()
    const notes: string[] = []
    await recorded(
      name,
      ep,
      notes,
      () => 0,
      async () => {
        try {
          writeProject(scratch, { endpoint: ep, files: { "facts.txt": SURVEY_NOTES }, plugin: { mode: "copy" } })
          const res = await runCli(
            scratch,
            // --print-logs: opencode's log lines go to stderr as well. The log *file* of `opencode run` loses its last
            // lines at exit (measured: even opencode's own "exiting loop" line is often missing), so it is only noted.
            ["run", "--print-logs", "--format", "json", "--model", "mock/scripted", ...PROMPT.split(" ")],
            { ...judgeEnv(ep.judgeBaseURL), RFE_JUDGE_LOG: "stderr" },
            90000,
          )
          expect(res.code).toBe(0)
          expect(ep.byKind("judge").length).toBeGreaterThanOrEqual(1)
          expect(agentRequests(ep).length).toBe(2)
          expect(agentRequests(ep).some((r) => agentContext(r.body).isNote)).toBe(false)
          // the plugin's own stderr report (RFE_JUDGE_LOG=stderr)
          expect(res.stderr).toContain("ragfaith: 1 statement in the last reply is not supported by the sources:")
          expect(res.stderr).toContain(`  - ${BAD_CLAIM} [unfaithful]`)
          // the plugin's warning as an opencode log line (client.app.log), printed by --print-logs
          const warnLine = res.stderr
            .split("\n")
            .find((l) => l.includes("level=WARN") && l.includes("ragfaith: 1 statement in the last reply"))
          expect(warnLine).toBeDefined()
          expect(warnLine).toContain("Seven bridges")
          const sessionID = sessionIdOf(res.stdout)
          expect(sessionID).toBeTruthy()
          const exported = await exportSession(scratch, sessionID ?? "")
          expect(notesIn(exported.messages).length).toBe(0)
          expect(exported.messages.at(-1)?.info.role).toBe("assistant")
          const inLogFile = readLogs(scratch).includes("statement in the last reply is not supported")
          notes.push(`exit ${res.code} after ${res.ms} ms; plugin stderr (RFE_JUDGE_LOG=stderr):`)
          notes.push(
            ...res.stderr
              .split("\n")
              .filter((l) => !l.startsWith("timestamp=") && (l.includes("ragfaith:") || l.startsWith("  - ")))
              .slice(0, 4),
          )
          notes.push(
            `opencode log line (--print-logs): ${(warnLine ?? "").replace(/sessionID=\S+ /, "").slice(0, 200)}`,
          )
          notes.push(`the same line in the opencode log file after exit: ${inLogFile ? "present" : "missing"}`)
          check(res, notes, ep)
        } finally {
          await ep.stop()
          if (process.env.RFE_LIVE_KEEP !== "1") rmSync(scratch.root, { recursive: true, force: true })
        }
      },
    )
  }

  test(
    "10. `opencode run`: exit 0, no note injected, flagged claims reported to stderr and as a log line",
    () => runMode("10 opencode run", factJudge, () => {}),
    TIMEOUT,
  )

  test(
    "10b. `opencode run` with a 3 s judge: dispose waits for the verdicts before the process exits",
    () =>
      runMode(
        "10b opencode run, slow judge",
        (ctx) => ({ ...factJudge(ctx), delayMs: 3000 }),
        (res, notes, ep) => {
          const lastVerdict = Math.max(...ep.byKind("judge").map((r) => r.endedAt))
          expect(res.exitedAt).toBeGreaterThan(lastVerdict)
          notes.push(`process exited ${res.exitedAt - lastVerdict} ms after the last verdict arrived`)
        },
      ),
    TIMEOUT,
  )
})

describe.skipIf(SKIP)("live: three ways to load the plugin", () => {
  // copy mode gets no options from opencode, so it is configured by env; npm and file modes get the judge only
  // through the options tuple (no RFE_JUDGE_* env at all), so the judge request's model proves the options arrived.
  const loaded = (mode: "copy" | "npm" | "file") => () =>
    live(
      `load ${mode}`,
      {
        agent: readThenReply("facts.txt", GOOD_REPLY),
        judgeEnv: (ep) =>
          mode === "copy" ? judgeEnv(ep.judgeBaseURL, { RFE_JUDGE_MAIN_MODEL: "judge-from-env" }) : {},
        plugin: (ep) => ({
          mode,
          options: {
            judge: {
              provider: "scripted",
              baseURL: ep.judgeBaseURL,
              apiKey: JUDGE_KEY,
              mainModel: "judge-from-options",
              fallbackModel: "judge-fallback",
            },
          },
        }),
      },
      ({ ep, scratch, notes }) => {
        const judged = ep.byKind("judge")
        expect(judged.length).toBeGreaterThanOrEqual(1)
        const models = [...new Set(judged.map((r) => r.body.model))]
        expect(models).toEqual([mode === "copy" ? "judge-from-env" : "judge-from-options"])
        expect(judged.every((r) => r.authorization === `Bearer ${JUDGE_KEY}`)).toBe(true)
        expect(seedIntact(scratch)).toBe(true)
        if (mode === "npm") {
          // the plugin opencode loaded is the packed tarball we pre-installed, not anything from a registry
          const lock = readFileSync(join(npmPluginDir(scratch), "package-lock.json"), "utf8")
          expect(lock).toContain(".tgz")
          notes.push(`npm plugin folder: ${npmPluginDir(scratch).replace(scratch.root, "<scratch>")}`)
        }
        notes.push(`judge model(s): ${JSON.stringify(models)}`)
      },
    )
  test("copy into .opencode/plugins/ (env config)", loaded("copy"), TIMEOUT)
  test("npm package from `npm pack`, options tuple", loaded("npm"), TIMEOUT)
  test("file:// spec with options tuple", loaded("file"), TIMEOUT)
})
