/**
 * The plugin on opencode 2: `setup(ctx)` against a fake opencode 2 host built from the public 2.x plugin API
 * (test/support/host-v2.ts). The same parts as on opencode 1 capture, judge and note; only the host boundary
 * differs. No 2.x CLI could be run here, so these tests are the whole of the opencode 2 verification.
 */

import { describe, expect, test } from "bun:test"
import { NOTE_TAG } from "../../src/feedback/note.ts"
import { createOwnership, readV2Event, type V2Plugin, v2EventReaders } from "../../src/host/v2.ts"
import plugin from "../../src/plugin.ts"
import { bridgesJudge, FACTS, WRONG_REPLY } from "../support/fixtures.ts"
import { createV2Host, HOME, type V2HostOptions, v2Read } from "../support/host-v2.ts"
import {
  type JudgeCall,
  type JudgeReply,
  type JudgeRule,
  judgeEnv,
  type startJudge,
  withJudge,
} from "../support/judge.ts"

const WRONG = WRONG_REPLY
const bridges = bridgesJudge()

const readFacts = () => v2Read(FACTS.path, FACTS.text)

describe("opencode 2: loading", () => {
  test("opencode 1's embedded setup pass (a context for registrations only) does nothing and throws nothing", async () => {
    const registrationOnly = {
      options: {},
      agent: { transform: () => {} },
      command: { transform: () => {} },
      plugin: { add: () => {}, remove: () => {} },
      skill: {},
      catalog: {},
    }
    for (const ctx of [registrationOnly, undefined, null, 42, "ctx", {}, { tool: {}, session: {}, event: {} }]) {
      expect(await plugin.setup(ctx)).toBeUndefined()
    }
  })

  test("setup registers the tool and session hooks, subscribes to events, and its cleanup undoes all of it", async () => {
    const host = await createV2Host()
    expect([...host.toolHooks.keys()].sort()).toEqual(["execute.after", "execute.before"])
    expect([...host.sessionHooks.keys()].sort()).toEqual(["context", "prompt"])
    expect(host.subscribers()).toBe(1)
    await host.started?.cleanup()
    expect(host.disposed()).toBe(4)
    expect([...host.toolHooks.values(), ...host.sessionHooks.values()].every((list) => list.length === 0)).toBe(true)
  })

  test("the real setup reads its judge from ctx.options (opencode 2's `plugins: [{ package, options }]`)", async () => {
    await withJudge(bridges, async (judge) => {
      const host = await createV2Host({
        options: { judge: { provider: "scripted", baseURL: judge.url, apiKey: "k", mainModel: "judge-main" } },
      })
      const session = await host.createSession()
      await host.turn(session, "How many bridges?", WRONG, [readFacts()])
      await host.settle()
      expect(judge.requests.length).toBeGreaterThan(0)
      expect(judge.requests[0]?.model).toBe("judge-main")
      await host.started?.cleanup()
    })
  })
})

type V2Work = (run: {
  judge: ReturnType<typeof startJudge>
  host: Awaited<ReturnType<typeof createV2Host>>
}) => Promise<void>

describe("opencode 2: a turn", () => {
  /** A scripted judge and a v2 host using it, for the length of `work`, stopped afterwards whatever happens. */
  const withV2Host = (rule: JudgeRule, options: V2HostOptions, work: V2Work) =>
    withJudge(rule, async (judge) =>
      work({ judge, host: await createV2Host({ env: judgeEnv(judge.url), ...options }) }),
    )

  test("a read is captured from the tool hook: the judge sees the file, cited with its lines", async () => {
    await withV2Host(bridges, {}, async ({ judge, host }) => {
      const session = await host.createSession()
      await host.turn(session, "How many bridges?", WRONG, [readFacts()])
      await host.settle()
      const request = judge.requests.find((call) => call.claim === "It has 7 bridges.")
      expect(request?.userContent).toContain("It has 3 bridges")
      expect(request?.sources[0]?.attrs).toContain(`${FACTS.path}:1-2`)
      // the header opencode 2 puts before the lines is not part of the source
      expect(request?.userContent).not.toContain("Read file")
    })
  })

  test("nothing is judged before the turn ends; at session.execution.succeeded the last reply is", async () => {
    await withV2Host(bridges, {}, async ({ judge, host }) => {
      const session = await host.createSession()
      await host.ctx.session.hook("prompt", async () => {})
      await host.turn(session, "How many bridges?", WRONG, [readFacts()])
      // the fake host ends every turn with execution.succeeded; a turn without it stays unjudged
      const other = await host.createSession()
      host.emit("session.step.started", {
        sessionID: other,
        assistantMessageID: "msg_open",
        agent: "build",
        model: { providerID: "mock", id: "scripted" },
      })
      host.emit("session.text.ended", { sessionID: other, assistantMessageID: "msg_open", ordinal: 0, text: WRONG })
      host.emit("session.step.ended", { sessionID: other, assistantMessageID: "msg_open", finish: "stop" })
      await host.settle()
      expect(judge.requests.map((call) => call.claim).sort()).toEqual([
        "Fredville is the capital city of Freedonia.",
        "It has 7 bridges.",
        "It has 7 bridges.",
      ])
    })
  })

  test("one note: session.synthetic with the instruction as text and the one-line notice as description", async () => {
    await withV2Host(bridges, { correct: () => "Fredville has 3 bridges." }, async ({ judge, host }) => {
      const session = await host.createSession()
      await host.turn(session, "How many bridges?", WRONG, [readFacts()])
      await host.settle()
      expect(host.synthetics).toHaveLength(1)
      const [note] = host.synthetics
      expect(note?.text.startsWith(NOTE_TAG)).toBe(true)
      expect(note?.text).toContain("It has 7 bridges.")
      expect(note?.description).toBe(
        `Automatic check: "7 bridges" conflicts with ${FACTS.path}:1-2, which says "3 bridges". Asking the agent to correct it.`,
      )
      expect(note?.description?.length).toBeLessThanOrEqual(1024)
      expect(note?.description).not.toContain("\n")
      expect(note).toMatchObject({ metadata: { source: "ragfaith" }, delivery: "queue", resume: true })
      // the correction it started was judged in turn, and drew no second note
      expect(judge.requests.some((call) => call.claim === "Fredville has 3 bridges.")).toBe(true)
    })
  })

  test("the depth bound: a judge that flags everything gets two notes, then silence", async () => {
    let round = 0
    const always = (): JudgeReply => ({ verdict: "unfaithful", source: "S1", quote: "It has 3 bridges", reason: "no" })
    await withV2Host(always, { correct: () => `It has ${++round + 20} bridges.` }, async ({ judge, host }) => {
      const session = await host.createSession()
      await host.turn(session, "How many bridges?", WRONG, [readFacts()])
      await host.settle()
      expect(host.synthetics).toHaveLength(2)
      // the reply to the second note was never judged
      expect(judge.requests.some((call) => call.claim === "It has 22 bridges.")).toBe(false)
    })
  })

  test("a subagent's session (created with a parentID) is left alone", async () => {
    await withV2Host(bridges, {}, async ({ judge, host }) => {
      const parent = await host.createSession()
      const child = await host.createSession(parent)
      await host.turn(child, "Count the bridges", WRONG, [readFacts()])
      await host.settle()
      expect(judge.requests).toEqual([])
      expect(host.synthetics).toEqual([])
    })
  })

  test("a new prompt before the verdicts come drops them: no note for a turn the user left", async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const held = async (call: JudgeCall) => {
      await gate
      return bridges(call)
    }
    await withV2Host(held, {}, async ({ host }) => {
      const session = await host.createSession()
      await host.turn(session, "How many bridges?", WRONG, [readFacts()])
      await host.turn(session, "Never mind, what about the river?", "The river is the Zeppo.")
      release()
      await host.settle()
      expect(host.synthetics).toEqual([])
    })
  })

  test("opencode 2's tool names: a shell run that failed settles a claim that the tests pass", async () => {
    await withV2Host(bridges, {}, async ({ judge, host }) => {
      const session = await host.createSession()
      await host.turn(session, "Run the tests", "I ran `npm test` and all tests pass.", [
        readFacts(),
        // opencode 2's shell tool completes with the exit code in its metadata, as opencode 1's bash does
        {
          tool: "shell",
          input: { command: "npm test" },
          content: "1 failing",
          metadata: { exit: 1, truncated: false },
        },
      ])
      await host.settle()
      // decided from the session's tool calls, with no judge call: the failed run contradicts "all tests pass"
      expect(judge.requests.filter((call) => /npm test/.test(call.claim))).toEqual([])
      expect(host.synthetics).toHaveLength(1)
      expect(host.synthetics[0]?.text).toContain("I ran npm test and all tests pass.")
    })
  })
})

describe("opencode 2: judging with the user's own models (no judge key)", () => {
  const models = [
    { id: "scripted", providerID: "mock", cost: [{ input: 3, output: 15 }] },
    { id: "small", providerID: "mock", cost: [{ input: 0.1, output: 0.4 }] },
    { id: "cheap", providerID: "elsewhere", cost: [{ input: 0, output: 0 }] },
  ]

  test("generate.text judges on another model of the agent's provider, never the agent's own", async () => {
    await withJudge(bridges, async (provider) => {
      const host = await createV2Host({
        models,
        generateURL: provider.url,
        correct: () => "Fredville has 3 bridges.",
      })
      const session = await host.createSession()
      await host.turn(session, "How many bridges?", WRONG, [readFacts()])
      await host.settle()
      expect(host.generated.length).toBeGreaterThan(0)
      for (const call of host.generated) expect(call.model).toEqual({ providerID: "mock", id: "small" })
      // no system prompt there: the judge prompt leads the one text
      expect(host.generated[0]?.prompt.startsWith("You are an impartial fact-checking judge.")).toBe(true)
      expect(host.synthetics).toHaveLength(1)
    })
  })

  test("a provider that never answers: each call ends at the plugin's own timeout, no note, one notice", async () => {
    await withJudge(
      () => ({ hang: true }),
      async (provider) => {
        const host = await createV2Host({
          models,
          generateURL: provider.url,
          env: { RFE_JUDGE_TIMEOUT_MS: "100", RFE_JUDGE_MAX_ATTEMPTS: "1" },
        })
        const session = await host.createSession()
        const started = Date.now()
        await host.turn(session, "How many bridges?", WRONG, [readFacts()])
        await host.settle()
        expect(Date.now() - started).toBeLessThan(5000)
        expect(host.generated.length).toBeGreaterThan(0)
        expect(host.synthetics).toEqual([])
        // told once, in people's words; the advice of which model judges is in the log once too, not twice
        expect(host.stderr.filter((line) => line.includes("has not answered"))).toHaveLength(1)
        expect(host.stderr.filter((line) => /the judge is mock\/small/i.test(line))).toHaveLength(1)
      },
    )
  })

  test("a provider that refuses (401): one notice in the server log, the route rests, the session goes on", async () => {
    await withJudge(
      () => ({ status: 401 }),
      async (provider) => {
        const host = await createV2Host({ models, generateURL: provider.url })
        const session = await host.createSession()
        await host.turn(session, "How many bridges?", WRONG, [readFacts()])
        await host.settle()
        const calls = host.generated.length
        await host.turn(session, "And the towers?", "Fredville has 9 towers.", [readFacts()])
        await host.settle()
        expect(host.generated.length).toBe(calls)
        expect(host.stderr.filter((line) => line.includes("refused the judge (HTTP 401)"))).toHaveLength(1)
        expect(host.synthetics).toEqual([])
      },
    )
  })
})

describe("opencode 2: bad input never escapes a hook", () => {
  const junk: unknown[] = [
    undefined,
    null,
    42,
    "text",
    [],
    {},
    { sessionID: 5 },
    { sessionID: "ses_x", tool: {}, input: "nope" },
    { sessionID: "ses_x", tool: "read", status: "completed", result: null },
    { sessionID: "ses_x", tool: "read", status: "completed", result: { content: [null, { type: "text" }] } },
    { sessionID: "ses_x", tool: "shell", status: "error", error: null },
    { sessionID: "ses_x", messageID: "msg_x", prompt: null },
    { sessionID: "ses_x", model: "mock/scripted", agent: 7 },
  ]

  test("every registered callback takes junk and resolves, and the next real turn is still judged", async () => {
    await withJudge(bridges, async (judge) => {
      const host = await createV2Host({ env: judgeEnv(judge.url) })
      for (const table of [host.toolHooks, host.sessionHooks]) {
        for (const callbacks of table.values()) {
          for (const callback of callbacks)
            for (const input of junk) await expect(Promise.resolve(callback(input))).resolves.toBeUndefined()
        }
      }
      const session = await host.createSession()
      await host.turn(session, "How many bridges?", WRONG, [readFacts()])
      await host.settle()
      expect(judge.requests.length).toBeGreaterThan(0)
    })
  })

  test("junk on the event stream neither ends it nor throws", async () => {
    await withJudge(bridges, async (judge) => {
      const host = await createV2Host({ env: judgeEnv(judge.url) })
      const junkEvents = [
        null,
        1,
        "x",
        { type: "session.text.ended", data: null },
        { type: 5, data: { sessionID: {} } },
      ]
      for (const event of junkEvents) host.raw(event)
      await host.drained()
      const session = await host.createSession()
      await host.turn(session, "How many bridges?", WRONG, [readFacts()])
      await host.settle()
      expect(judge.requests.length).toBeGreaterThan(0)
    })
  })

  test("the event reader reads only what it knows, and tells the facts directly", () => {
    const calls: Array<[string, unknown[]]> = []
    const record =
      (name: string) =>
      (...args: unknown[]) =>
        void calls.push([name, args])
    const facts = {
      session: record("session"),
      sessionDeleted: record("sessionDeleted"),
      message: record("message"),
      replyText: record("replyText"),
      idle: record("idle"),
    }
    const parts = { facts } as unknown as V2Plugin["parts"]
    const notifier = { showStartupNotice: () => {} } as unknown as V2Plugin["notifier"]
    const ownership = createOwnership({ directory: HOME })
    ownership.claim("s")
    const read = (raw: unknown) => readV2Event(raw, v2EventReaders(parts), ownership, notifier)
    for (const raw of [
      null,
      5,
      {},
      { type: "session.idle", data: { sessionID: "s" } },
      { type: "session.text.ended", data: { sessionID: "s" } },
      { type: "session.execution.succeeded", data: {} },
      { type: "session.execution.succeeded", data: { sessionID: "other" } },
    ])
      read(raw)
    expect(calls).toEqual([])
    read({ type: "session.execution.succeeded", data: { sessionID: "s" } })
    read({ type: "session.text.ended", data: { sessionID: "s", assistantMessageID: "m", ordinal: 0, text: "Hi." } })
    expect(calls).toEqual([
      ["idle", ["s"]],
      ["replyText", ["s", "m", "m:0", "Hi."]],
    ])
  })

  test("a part that throws is caught by the guard and logged as the hook's failure", async () => {
    const host = await createV2Host()
    if (!host.started) throw new Error("the plugin did not start")
    host.started.parts.capture.afterTool = () => {
      throw new Error("capture broke")
    }
    const session = await host.createSession()
    await host.turn(session, "How many bridges?", "It has 3 bridges.", [readFacts()])
    expect(host.stderr.filter((line) => line.startsWith("ERROR ragfaith: execute.after failed"))).toHaveLength(1)
  })
})

describe("opencode 2: whose sessions the plugin reads", () => {
  /** The judge's claims and the notes of a host fed one wrong turn in `session`. */
  const wrongTurn = async (host: Awaited<ReturnType<typeof createV2Host>>, session: string) => {
    await host.turn(session, "How many bridges?", WRONG, [readFacts()])
    await host.settle()
  }

  test("older 2.x builds' session.created { sessionID, info }: a subagent's parent is read from info", async () => {
    await withJudge(bridges, async (judge) => {
      const host = await createV2Host({ env: judgeEnv(judge.url), created: "info" })
      const parent = await host.createSession()
      const child = await host.createSession(parent)
      await wrongTurn(host, child)
      expect(judge.requests).toEqual([])
      expect(host.synthetics).toEqual([])
      // the event said so: nobody had to ask
      expect(host.gets).not.toContain(child)
    })
  })

  test("2.0.26's flat session.created: the parent is read from the top, with no question asked", async () => {
    await withJudge(bridges, async (judge) => {
      const host = await createV2Host({ env: judgeEnv(judge.url) })
      const child = await host.createSession(await host.createSession())
      await wrongTurn(host, child)
      expect(judge.requests).toEqual([])
      expect(host.gets).not.toContain(child)
    })
  })

  test("a session.created that names no parent: session.get is asked once, and a root session is judged", async () => {
    await withJudge(bridges, async (judge) => {
      const host = await createV2Host({ env: judgeEnv(judge.url), correct: () => "Fredville has 3 bridges." })
      const root = await host.createSession()
      await wrongTurn(host, root)
      expect(host.gets).toEqual([root])
      expect(judge.requests.some((call) => call.claim === "It has 7 bridges.")).toBe(true)
      expect(host.synthetics).toHaveLength(1)
    })
  })

  test("another project's session on the shared stream is left alone: no state, no question, no judge, no note", async () => {
    await withJudge(bridges, async (judge) => {
      const host = await createV2Host({ env: judgeEnv(judge.url) })
      const neighbour = await host.createSession(undefined, { directory: "/work/elsewhere" })
      // its prompt and tool hooks fire in its own project's instance; only its events reach this one
      await wrongTurn(host, neighbour)
      expect(host.started?.sessions.has(neighbour)).toBe(false)
      expect(host.gets).toEqual([])
      expect(judge.requests).toEqual([])
      expect(host.synthetics).toEqual([])
      // this project's own session, on the same stream, is judged as ever
      await wrongTurn(host, await host.createSession())
      expect(judge.requests.length).toBeGreaterThan(0)
    })
  })

  test("events without a location: a session is the plugin's own once its hooks fire, and a subagent still is not judged", async () => {
    await withJudge(bridges, async (judge) => {
      const host = await createV2Host({ env: judgeEnv(judge.url), locate: false })
      const parent = await host.createSession()
      // announced, but no hook has fired for it yet: nothing is kept
      expect(host.started?.sessions.has(parent)).toBe(false)
      const child = await host.createSession(parent)
      await wrongTurn(host, child)
      expect(host.gets).toContain(child)
      expect(judge.requests).toEqual([])
      await wrongTurn(host, parent)
      expect(judge.requests.some((call) => call.claim === "It has 7 bridges.")).toBe(true)
    })
  })

  test("ownership: a hook claims a session, its events' location confirms or takes it away", () => {
    const ownership = createOwnership({ directory: HOME, project: { id: "p", directory: HOME } })
    expect(ownership.admits("a", undefined)).toBe(false)
    ownership.claim("a")
    expect(ownership.admits("a", undefined)).toBe(true)
    expect(ownership.admits("a", { directory: HOME })).toBe(true)
    // the same directory in another workspace is another location
    expect(ownership.admits("a", { directory: HOME, workspaceID: "wrk_1" })).toBe(false)
    expect(ownership.owns("a")).toBe(false)
    expect(ownership.admits("b", { directory: HOME })).toBe(true)
    expect(ownership.owns("b")).toBe(true)
    // a host that gives no location of its own: only hooks decide
    const unplaced = createOwnership(undefined)
    expect(unplaced.admits("c", { directory: HOME })).toBe(false)
    unplaced.claim("c")
    expect(unplaced.admits("c", { directory: "/elsewhere" })).toBe(true)
  })
})
