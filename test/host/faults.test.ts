// Faults of the host on the watched host of test/support/faults.ts: mistyped, missing and out-of-order input.

import { afterAll, describe, expect, test } from "bun:test"
import { join } from "node:path"
import type { HostClient } from "../../src/config/effects.ts"
import {
  bridgeRule,
  expectHealthy,
  expectNoRejections,
  THREE,
  twoReplies,
  type Watched,
  WRONG,
  watchedHost,
} from "../support/faults.ts"
import { FACTS } from "../support/fixtures.ts"
import { nextId } from "../support/host.ts"
import { judgeEnv, startJudge } from "../support/judge.ts"

const judge = startJudge(({ claim }) => bridgeRule(claim))
afterAll(() => judge.stop())

// ── 2. host faults ───────────────────────────────────────────────────────────────────────────────────────

describe("host faults", () => {
  test("a wait of the plugin's (a backoff, a toast hold's limit) never keeps the process from exiting", async () => {
    const child = `
      import { defaultDeps } from ${JSON.stringify(join(import.meta.dir, "../../src/host/v1.ts"))}
      const deps = defaultDeps({})
      void deps.sleep(60_000).then(() => console.log("waited"))
      let fired = false
      await deps.sleep(10).then(() => { fired = true })
      console.log(fired ? "short wait fired" : "short wait lost")
    `
    const started = Date.now()
    const proc = Bun.spawn([process.execPath, "-e", child], { stdout: "pipe", stderr: "pipe" })
    expect(await proc.exited).toBe(0)
    expect(await new Response(proc.stdout).text()).toBe("short wait fired\n")
    expect(Date.now() - started).toBeLessThan(20_000)
  })

  /** A complete turn that must end in a note: proof the plugin still works after the fault. */
  async function stillNotes(host: Watched, session?: string) {
    const id = session ?? (await host.createSession())
    const before = host.prompts.length
    await host.readTurn(id, "Tell me about Freedonia", FACTS, WRONG)
    await host.settle()
    expect(host.prompts.length - before).toBe(1)
    expect(host.prompts.at(-1)?.text).toContain('"It has 7 bridges."')
  }

  test("events with missing, null, unknown or mistyped fields are ignored without an internal error", async () => {
    const host = watchedHost({ env: judgeEnv(judge.url) })
    const session = await host.createSession()
    const junk: unknown[] = [
      { type: "session.idle" },
      { type: "session.idle", properties: null },
      { type: "session.idle", properties: { sessionID: 42 } },
      { type: "message.updated", properties: null },
      { type: "message.updated", properties: { sessionID: session } },
      { type: "message.updated", properties: { sessionID: session, info: null } },
      { type: "message.updated", properties: { sessionID: session, info: { role: "assistant", sessionID: session } } },
      { type: "message.updated", properties: { sessionID: session, info: { id: 42, role: "assistant" } } },
      { type: "message.updated", properties: { sessionID: 7, info: { id: "msg_x", role: 7, sessionID: 9 } } },
      {
        type: "message.updated",
        properties: { sessionID: session, info: { id: "msg_u", role: "user", agent: 5, model: "gpt" } },
      },
      {
        type: "message.updated",
        properties: { sessionID: session, info: { id: "msg_a", role: "assistant", finish: 3, modelID: 4 } },
      },
      { type: "message.part.updated", properties: { sessionID: session, part: null } },
      { type: "message.part.updated", properties: { sessionID: session, part: { id: "p", type: "text", text: "x" } } },
      { type: "message.part.updated", properties: { sessionID: session, part: { id: 1, messageID: 2, text: 3 } } },
      {
        type: "message.part.updated",
        properties: { sessionID: session, part: { id: "p", messageID: "msg_u", type: "text", text: 9 } },
      },
      {
        type: "message.part.updated",
        properties: { sessionID: session, part: { id: "p", messageID: "msg_a", type: "hologram", payload: {} } },
      },
      {
        type: "message.part.updated",
        properties: {
          sessionID: session,
          part: { messageID: "msg_a", type: "tool", tool: 5, state: { status: "error", input: "x", error: 7 } },
        },
      },
      {
        type: "message.part.updated",
        properties: { sessionID: session, part: { messageID: "msg_a", type: "tool", tool: "bash", state: null } },
      },
      {
        type: "message.part.updated",
        properties: {
          sessionID: session,
          part: { messageID: "msg_a", type: "tool", tool: "bash", state: { status: "error", input: null } },
        },
      },
      { type: "message.part.delta", properties: { sessionID: session, delta: 12 } },
      { type: "session.created", properties: { info: { id: 12 } } },
      { type: "session.created", properties: { info: { id: "ses_numeric_parent", parentID: 5 } } },
      { type: "session.updated", properties: { info: null } },
      { type: "session.deleted", properties: {} },
      { type: "session.deleted", properties: { info: { id: 3 } } },
      { type: "session.status", properties: { sessionID: session, status: "idle" } },
      { type: "session.status", properties: { sessionID: session, status: { type: 9 } } },
      { type: "session.error", properties: { sessionID: session, error: null } },
      { type: "tui.toast.show", properties: { title: "ragfaith", message: "echo of our own toast" } },
      { type: "plugin.added", properties: { id: 1 } },
      { type: "totally.unknown", properties: { whatever: [1, 2] } },
      { type: 42, properties: {} },
      { type: null },
      { properties: { sessionID: session } },
      {},
      null,
      "session.idle",
      42,
    ]
    for (const event of junk) await host.call("event", { event })
    await host.call("event", {})
    await host.settle()
    expect(host.prompts).toEqual([])
    expect(host.plugin.counters.requests).toBe(0)
    expectHealthy(host)
    // The session that got the junk is not damaged by it.
    await stillNotes(host, session)
    expectHealthy(host)
  })

  test("hooks called with mistyped arguments resolve without an internal error, and the plugin keeps working", async () => {
    const host = watchedHost({ env: judgeEnv(judge.url) })
    const session = await host.createSession()
    const calls: Array<[string, ...unknown[]]> = [
      ["event", null],
      ["chat.message", { sessionID: session }, { message: null, parts: "nope" }],
      ["chat.message", { sessionID: 42 }, { message: { id: 7 }, parts: [{ type: "text", text: 1 }] }],
      ["chat.params", { sessionID: session, agent: 3, model: null }, undefined],
      ["chat.params", { sessionID: session, agent: "build", model: { id: 9, providerID: {} } }, {}],
      ["tool.execute.before", { tool: 5, sessionID: 7 }, { args: null }],
      ["tool.execute.before", { tool: "bash", sessionID: session }, { args: { command: 42 } }],
      ["tool.execute.before", { tool: "write", sessionID: session }, { args: { content: ["import x"] } }],
      ["tool.execute.after", { tool: "read", sessionID: session, callID: "c" }, undefined],
      ["tool.execute.after", { tool: "read", sessionID: session, args: "x" }, { output: 42, metadata: "m", title: 9 }],
      ["tool.execute.after", { tool: 7, sessionID: session, args: null }, { output: { text: "object output" } }],
      ["tool.execute.after", { tool: "read", sessionID: session, args: { filePath: 5 } }, { output: null }],
      ["experimental.text.complete", { sessionID: session, messageID: 5, partID: null }, { text: 7 }],
      ["experimental.text.complete", { sessionID: 5 }, null],
    ]
    for (const [name, ...args] of calls) await host.call(name, ...args)
    await host.settle()
    expectHealthy(host)
    await stillNotes(host, session)
    expectHealthy(host)
  })

  test("hooks called with no arguments at all resolve; guard may log them, nothing more", async () => {
    const host = watchedHost({ env: judgeEnv(judge.url) })
    for (const name of Object.keys(host.hooks)) await host.call(name)
    await host.settle()
    // Outside opencode's contract: the guard catches and logs, and the hook still resolves.
    expectHealthy(host, { internalErrors: true })
    expect(host.logs.every((line) => line.level !== "error" || /^ragfaith: [\w.]+ failed$/.test(line.message))).toBe(
      true,
    )
    await stillNotes(host)
  })

  test("events for sessions never seen: ignored when meaningless, judged when complete", async () => {
    const host = watchedHost({ env: judgeEnv(judge.url) })
    for (const type of ["session.idle", "session.status"]) {
      await host.event(type, { sessionID: "ses_ghost", status: { type: "idle" } })
    }
    await host.event("message.part.updated", {
      sessionID: "ses_ghost",
      part: { id: "p", messageID: "msg_ghost", sessionID: "ses_ghost", type: "text", text: "It has 7 bridges." },
    })
    await host.idle("ses_ghost")
    await host.settle()
    expect(host.plugin.sessions.has("ses_ghost")).toBe(false)
    expect(host.prompts).toEqual([])

    // A whole turn in a session whose creation the plugin missed: the host is asked for its parent once.
    await stillNotes(host, "ses_joined_late")
    expect(host.sessionLookups).toEqual(["ses_joined_late"])
    expectHealthy(host)
  })

  test("out of order: idle before any reply, text after idle, idle for an unknown session", async () => {
    const host = watchedHost({ env: judgeEnv(judge.url), correct: () => undefined })
    const session = await host.createSession()
    await host.idle(session)
    await host.idle("ses_unknown")
    const { replyID } = await host.readTurn(session, "Tell me about Freedonia", FACTS, THREE)
    await host.settle()
    const requests = host.plugin.counters.requests
    expect(requests).toBe(3)
    // The final text changes after the turn was judged: a late event, not a new reply.
    await host.event("message.part.updated", {
      sessionID: session,
      part: { id: nextId("prt"), messageID: replyID, sessionID: session, type: "text", text: WRONG },
    })
    await host.call(
      "experimental.text.complete",
      { sessionID: session, messageID: replyID, partID: "late" },
      { text: WRONG },
    )
    await host.idle(session)
    await host.idle(session)
    await host.settle()
    expect(host.plugin.counters.requests).toBe(requests)
    expect(host.prompts).toEqual([])
    await stillNotes(host, session)
    expectHealthy(host)
  })

  test("out of order: the text arrives before its assistant message is announced", async () => {
    const host = watchedHost({ env: judgeEnv(judge.url) })
    const session = await host.createSession()
    const userID = await host.userMessage(session, "Tell me about Freedonia")
    await host.toolCall(session, userID, "read", { filePath: FACTS.path }, { output: FACTS.text })
    const messageID = nextId("msg")
    const partID = nextId("prt")
    const part = { id: partID, messageID, sessionID: session, type: "text", text: WRONG, time: { start: 1, end: 2 } }
    await host.call("experimental.text.complete", { sessionID: session, messageID, partID }, { text: WRONG })
    await host.event("message.part.updated", { sessionID: session, part })
    const info = { id: messageID, parentID: userID, role: "assistant", sessionID: session, providerID: "mock" }
    await host.event("message.updated", { sessionID: session, info: { ...info, modelID: "scripted" } })
    await host.event("message.updated", { sessionID: session, info: { ...info, modelID: "scripted", finish: "stop" } })
    await host.idle(session)
    await host.settle()
    expect(host.prompts).toHaveLength(1)
    expect(host.prompts[0]?.text).toContain('"It has 7 bridges."')
    expectHealthy(host)
  })

  test.each([
    ["resolves with { error }", "error"],
    ["rejects", "reject"],
    ["throws synchronously", "throw"],
  ] as const)(
    "session.prompt %s: each failure told under its reply (one toast if notices fail too), and a later turn still notes",
    async (_name, mode) => {
      let failing = true
      const host = watchedHost({
        env: judgeEnv(judge.url),
        promptResult: async () => {
          if (!failing || mode === "throw") return {}
          if (mode === "reject") throw new Error("socket hang up")
          return { error: { name: "UnknownError", data: { message: "boom" } } }
        },
        wrapClient: (client) => ({
          ...client,
          session: {
            ...client.session,
            prompt: (call) => {
              const recorded = client.session.prompt(call)
              if (failing && mode === "throw") throw new Error("prompt is not a function of this host")
              return recorded
            },
          },
        }),
      })
      const { session } = await twoReplies(host, WRONG)
      expect(host.prompts).toHaveLength(2)
      expect(host.plugin.counters).toMatchObject({ notes: 2, injectionFailures: 2 })
      if (mode === "throw") {
        // The host's prompt fails for notices too: one toast for the session says it instead.
        expect(host.toasts.map((toast) => toast.message)).toEqual([
          '1 statement looks unsupported: "It has 7 bridges." The agent was not told; see /ragfaith.',
        ])
      } else {
        expect(host.toasts).toEqual([])
        const told = host.notices.map((notice) => notice.text.replace(/\n/g, " "))
        expect(told).toHaveLength(2)
        for (const text of told) expect(text).toEndWith("The note to the agent failed.")
      }
      expect(host.logs.filter((line) => line.message.includes("could not inject"))).toHaveLength(2)

      failing = false
      await stillNotes(host, session)
      expect(host.plugin.counters).toMatchObject({ notes: 3, injectionFailures: 2 })
      expectHealthy(host)
    },
  )

  /** A client whose showToast or app.log records the call, then fails the given way. */
  const failing =
    (method: "showToast" | "log", how: "reject" | "throw") =>
    (client: HostClient): HostClient => {
      const fail = <T>(recorded: Promise<T>): Promise<T> => {
        void recorded.catch(() => {})
        if (how === "throw") throw new Error(`${method} exploded`)
        return Promise.reject(new Error(`${method} rejected`))
      }
      return method === "showToast"
        ? { ...client, tui: { showToast: (call) => fail(client.tui.showToast(call)) } }
        : { ...client, app: { log: (call) => fail(client.app.log(call)) } }
    }

  test.each([
    ["showToast", "reject"],
    ["showToast", "throw"],
    ["log", "reject"],
    ["log", "throw"],
  ] as const)("%s that %ss: every toast and log attempt is survived, later turns still note", async (method, how) => {
    const host = watchedHost({
      // A bad setting gives a startup warning (a log line and a toast) on the first event.
      env: judgeEnv(judge.url, { RFE_MAX_CLAIMS: "many" }),
      wrapClient: failing(method, how),
    })
    const session = await host.createSession()
    const userID = await host.userMessage(session, "Install it")
    // A doc-pull warning: another log line and toast.
    await host.toolCall(session, userID, "bash", { command: "npm install left-pad" }, { output: "added 1 package" })
    expect(host.toasts.length).toBe(2)
    expect(host.logs.length).toBeGreaterThanOrEqual(2)
    await stillNotes(host, session)
    await stillNotes(host)
    expectHealthy(host)
  })
})

expectNoRejections()
