// Toasts written for people: what happened, what to do, two lines at most, never over the notice.

import { describe, expect, test } from "bun:test"
import { MESSAGE_WIDTH, NOTICE_READ_MS } from "../../src/feedback/note.ts"
import { createToastHold, HOLD_LIMIT_MS } from "../../src/feedback/notifier.ts"
import { BRIDGES_CONTRADICTED, bridgesJudge, FACTS, toastLines, WRONG_REPLY } from "../support/fixtures.ts"
import { createHost, type HostOptions } from "../support/host.ts"
import { judgeEnv, withJudge } from "../support/judge.ts"
import { turn } from "../support/turns.ts"

/** A host whose prompt refuses a notice (a message with no turn): what the notice says goes in a toast. */
const NO_NOTICES: Pick<HostOptions, "wrapClient"> = {
  wrapClient: (client) => ({
    ...client,
    session: {
      ...client.session,
      prompt: async (call) => (call.body.noReply ? { error: "not available" } : client.session.prompt(call)),
    },
  }),
}

const WRONG = WRONG_REPLY
const bridges = bridgesJudge()

describe("toasts for people", () => {
  test("a refused key is told under the reply, where no toast opens over it: two rows, in the notice's voice", async () => {
    const { host } = await turn(() => ({ status: 401 }))
    expect(host.toasts).toEqual([])
    expect(host.notices.map((notice) => notice.text)).toEqual([
      "Automatic check: the judge refused the key (HTTP 401): check\nRFE_JUDGE_API_KEY. Replies go unchecked.",
    ])
    for (const row of host.notices[0]?.text.split("\n") ?? []) expect(row.length).toBeLessThanOrEqual(MESSAGE_WIDTH)
    // a line the user reads and the model never gets, and no turn: undo passes over it to the user's message
    expect(host.prompts).toEqual([])
  })

  test("a failure that comes after the user moved on is a toast: the reply is no longer the last", async () => {
    let fail: () => void = () => {}
    const failed = new Promise<void>((resolve) => {
      fail = resolve
    })
    await withJudge(
      async () => {
        await failed
        return { status: 401 }
      },
      async (judge) => {
        const host = createHost({ env: judgeEnv(judge.url) })
        const session = await host.createSession()
        await host.readTurn(session, "How many bridges?", FACTS, WRONG)
        await host.userMessage(session, "And the capital?")
        fail()
        await host.settle()
        expect(host.notices).toEqual([])
        expect(host.toasts.map((toast) => toast.message)).toEqual([
          "The judge refused the key (HTTP 401): check RFE_JUDGE_API_KEY. Replies go unchecked.",
        ])
      },
    )
  })

  test("a host that cannot add the notice (the prompt fails) shows it as a toast instead", async () => {
    const { host } = await turn(() => ({ status: 401 }), NO_NOTICES)
    expect(host.notices).toEqual([])
    expect(host.toasts.map((toast) => toast.message)).toEqual([
      "The judge refused the key (HTTP 401): check RFE_JUDGE_API_KEY. Replies go unchecked.",
    ])
  })

  test("a toast is titled once and never says 'ragfaith:' again, within two lines of opencode's toast box", async () => {
    // Notes off on a host that cannot add the notice: the flagged reply is told in a toast instead.
    const { host } = await turn(bridges, { env: { RFE_NUDGE_DEPTH: "0" }, ...NO_NOTICES })
    expect(host.toasts.length).toBeGreaterThan(0)
    for (const toast of host.toasts) {
      expect(toast.title).toBe("ragfaith")
      expect(toast.message).not.toMatch(/^ragfaith/i)
      expect(toastLines(toast.message)).toBeLessThanOrEqual(2)
    }
  })

  test("a judge that stays broken is told again after ten minutes, not only once", async () => {
    let clock = Date.parse("2026-12-01T14:02:00")
    await withJudge(
      () => ({ status: 503 }),
      async (judge) => {
        const host = createHost({
          env: judgeEnv(judge.url, { RFE_JUDGE_MAX_ATTEMPTS: "1" }),
          deps: { now: () => clock },
        })
        const session = await host.createSession()
        await host.readTurn(session, "How many bridges?", FACTS, WRONG)
        await host.settle()
        clock += 5 * 60_000
        await host.reply(session, await host.userMessage(session, "Again"), "Fredville has 8 bridges.")
        await host.settle()
        expect(host.notices).toHaveLength(1)
        clock += 6 * 60_000
        await host.reply(session, await host.userMessage(session, "Again"), "Fredville has 9 bridges.")
        await host.settle()
        expect(host.told()).toEqual([
          "The judge fails (HTTP 503) since 14:02; replies go unchecked until it answers.",
          "The judge fails (HTTP 503) since 14:02; replies go unchecked until it answers.",
        ])
        expect(host.toasts).toEqual([])
      },
    )
  })

  test("with notes off, the notice under the reply names the wrong part and says the agent is not asked; no toast over it", async () => {
    const { host } = await turn(bridges, { env: { RFE_NUDGE_DEPTH: "0" } })
    expect(host.prompts).toEqual([])
    expect(host.toasts).toEqual([])
    const [notice, ...more] = host.notices.map((entry) => entry.text)
    expect(more).toEqual([])
    expect(notice).toStartWith('Automatic check: "It has 7 bridges." conflicts with facts.txt')
    expect(notice?.replace(/\n/g, " ")).toEndWith("Notes are off, so the agent is not asked.")
    for (const row of notice?.split("\n") ?? []) expect(row.length).toBeLessThanOrEqual(MESSAGE_WIDTH)
  })

  test("a note the host refuses is told in a notice under the reply, naming the wrong part; no toast over it", async () => {
    const { host } = await turn(bridges, {
      wrapClient: (client) => ({
        ...client,
        session: {
          ...client.session,
          prompt: async (call) => (call.body.noReply ? client.session.prompt(call) : { error: "the session is busy" }),
        },
      }),
    })
    expect(host.toasts).toEqual([])
    const notices = host.notices.map((entry) => entry.text.replace(/\n/g, " "))
    expect(notices).toHaveLength(1)
    expect(notices[0]).toStartWith('Automatic check: "It has 7 bridges." conflicts with facts.txt')
    expect(notices[0]).toEndWith("The note to the agent failed.")
    expect(host.plugin.counters.injectionFailures).toBe(1)
  })

  test("with notes off and several flags, the notice counts the others and points to /ragfaith", async () => {
    const both = ({ claim }: { claim: string }) =>
      /7 bridges|9 ferries/.test(claim) ? BRIDGES_CONTRADICTED : bridges({ claim })
    const { host } = await turn(
      both,
      { env: { RFE_NUDGE_DEPTH: "0" } },
      "Fredville is the capital city of Freedonia. It has 7 bridges. It has 9 ferries.",
    )
    const notice = host.notices.map((entry) => entry.text.replace(/\n/g, " ")).join("|")
    expect(notice).toMatch(/^Automatic check: .*Notes are off.*\/ragfaith lists/)
    expect(host.toasts).toEqual([])
  })

  test("a long flagged statement is shortened so the fallback toast keeps its two lines and its pointer to /ragfaith", async () => {
    const long = `It has 7 bridges, ${"each of them built of grey stone by the river guild over many long years, ".repeat(3)}`
    const { host } = await turn(
      bridges,
      { env: { RFE_NUDGE_DEPTH: "0" }, ...NO_NOTICES },
      `Fredville is the capital city of Freedonia. ${long}`,
    )
    const [toast] = host.toasts
    expect(toast?.message).toStartWith('1 statement looks unsupported: "It has 7 bridges, each')
    expect(toast?.message).toEndWith("Notes are off; see /ragfaith.")
    expect(toastLines(toast?.message ?? "")).toBe(2)
  })

  test("in `opencode run`, stderr names the flagged statement and where the log is", async () => {
    await withJudge(bridges, async (judge) => {
      const host = createHost({ env: judgeEnv(judge.url), mode: "run" })
      const session = await host.createSession()
      const userID = await host.userMessage(session, "How many bridges?")
      await host.toolCall(session, userID, "read", { filePath: FACTS.path }, { output: FACTS.text })
      await host.reply(session, userID, WRONG, { idle: false })
      await host.event("session.status", { sessionID: session, status: { type: "idle" } })
      await host.hooks.dispose()
      expect(host.stderr.join("")).toContain(
        "  - It has 7 bridges. [unfaithful]\n  details: the opencode log (~/.local/share/opencode/log)",
      )
    })
  })

  /** A wrong reply judged by one of the user's models: the note is out, its correction turn as `opts` answers it. */
  async function noteOut(providerURL: string, opts: Pick<HostOptions, "promptResult" | "deps">) {
    const host = createHost({
      providers: [{ id: "mock", source: "config", models: { scripted: {}, title: {}, judge: {} } }],
      providerURL,
      opencodeConfig: { small_model: "mock/title" },
      ...opts,
    })
    const session = await host.createSession()
    await host.readTurn(session, "How many bridges?", FACTS, WRONG)
    for (let i = 0; i < 500 && host.prompts.length === 0; i++) await Bun.sleep(2)
    await Bun.sleep(20)
    return host
  }

  /** Advice of the doc-pull check in a session of its own: a toast that comes while the note is out. */
  async function adviseMeanwhile(host: ReturnType<typeof createHost>) {
    const side = await host.createSession()
    const user = await host.userMessage(side, "Install left-pad and use it")
    for (let i = 0; i < 2; i++)
      await host.toolCall(side, user, "bash", { command: "npm install left-pad" }, { output: "added 1 package" })
  }
  const ADVICE = /left-pad/

  test("toasts wait while a reply is judged and its note is answered: nothing covers the notice as it appears", async () => {
    let answer: () => void = () => {}
    const answered = new Promise<void>((resolve) => {
      answer = resolve
    })
    await withJudge(bridges, async (provider) => {
      const host = await noteOut(provider.url, {
        promptResult: async () => {
          await answered
          return {}
        },
      })
      // the note is out and its correction not yet answered: advice given meanwhile waits
      expect(host.prompts).toHaveLength(1)
      await adviseMeanwhile(host)
      expect(host.toasts).toEqual([])
      answer()
      await host.settle()
      await Bun.sleep(10)
      expect(host.sleeps).toContain(NOTICE_READ_MS)
      expect(host.toasts.map((toast) => toast.message)).toEqual([expect.stringMatching(ADVICE)])
    })
  })

  test("held toasts come together once released, the warning last so it is the one that stays", () => {
    const shown: string[] = []
    const hold = createToastHold((message) => shown.push(message), { now: () => 0, sleep: async () => {} })
    const release = hold.hold()
    const second = hold.hold()
    hold.toast("Warning", "warning")
    hold.toast("Advice", "info")
    hold.toast("Warning", "warning")
    release()
    release()
    expect(shown).toEqual([])
    second()
    expect(shown).toEqual(["Advice", "Warning"])
    hold.toast("Later", "info")
    expect(shown.at(-1)).toBe("Later")
  })

  test("no hold keeps a toast back past its limit: a correction that never ends silences nothing for good", async () => {
    let now = 1_000
    const timers: Array<{ ms: number; fire: () => void }> = []
    const clock = {
      now: () => now,
      sleep: (ms: number) => new Promise<void>((resolve) => timers.push({ ms, fire: resolve })),
    }
    const shown: string[] = []
    const hold = createToastHold((message) => shown.push(message), clock)
    hold.hold() // never released
    hold.toast("Judge unreachable", "warning")
    expect(shown).toEqual([])
    expect(timers.map((timer) => timer.ms)).toEqual([HOLD_LIMIT_MS])
    // the timer firing early (or a clock that has not moved) changes nothing
    timers[0]?.fire()
    await Bun.sleep(0)
    expect(shown).toEqual([])
    now += HOLD_LIMIT_MS
    hold.toast("Second", "warning")
    expect(shown).toEqual(["Judge unreachable", "Second"])
    // a hold begun while toasts wait sets its own timer, so it cannot strand them either
    const later = hold.hold()
    hold.toast("Third", "warning")
    hold.hold()
    expect(timers.length).toBe(3)
    later()
    expect(shown).toEqual(["Judge unreachable", "Second"])
    now += HOLD_LIMIT_MS
    for (const timer of timers.splice(0)) timer.fire()
    await Bun.sleep(0)
    expect(shown).toEqual(["Judge unreachable", "Second", "Third"])
  })

  test("a correction turn that hangs holds the toasts it would cover only up to the limit", async () => {
    let offset = 0
    const limits: Array<() => void> = []
    await withJudge(bridges, async (provider) => {
      const host = await noteOut(provider.url, {
        promptResult: () => new Promise(() => {}),
        deps: {
          now: () => Date.now() + offset,
          sleep: (ms) =>
            ms === HOLD_LIMIT_MS ? new Promise<void>((resolve) => limits.push(resolve)) : Promise.resolve(),
        },
      })
      expect(host.prompts).toHaveLength(1)
      await adviseMeanwhile(host)
      expect(host.toasts).toEqual([])
      expect(limits.length).toBeGreaterThan(0)
      offset = HOLD_LIMIT_MS
      for (const fire of limits.splice(0)) fire()
      await Bun.sleep(10)
      expect(host.toasts.map((toast) => toast.message)).toEqual([expect.stringMatching(ADVICE)])
    })
  })

  test("with notes off, other toasts wait until the flagged reply and its notice have been read", async () => {
    const { host } = await turn(bridges, { env: { RFE_NUDGE_DEPTH: "0" } })
    expect(host.sleeps).toContain(NOTICE_READ_MS)
    expect(host.notices).toHaveLength(1)
  })

  test("the route tells once which model judges, under the first reply judged, in two whole rows", async () => {
    await withJudge(bridges, async (provider) => {
      const host = createHost({
        providers: [{ id: "mock", source: "config", models: { scripted: {}, title: {} } }],
        providerURL: provider.url,
        opencodeConfig: { small_model: "mock/title" },
      })
      const session = await host.createSession()
      await host.readTurn(session, "How many bridges?", FACTS, "Fredville has many bridges and a harbour.")
      await host.settle()
      await host.reply(session, await host.userMessage(session, "Again"), "Fredville has a harbour.")
      await host.settle()
      expect(host.notices.map((notice) => notice.text)).toEqual([
        "Automatic check: the judge is mock/title, one of your models;\nRFE_JUDGE_MAIN_MODEL picks another.",
      ])
      expect(host.toasts).toEqual([])
    })
  })
})
