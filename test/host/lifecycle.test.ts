// The host's lifecycle: `opencode run` and its dispose, deleted sessions, and telling run from serve.

import { afterAll, describe, expect, test } from "bun:test"
import { detectMode } from "../../src/host/v1.ts"
import plugin from "../../src/plugin.ts"
import { FACTS } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { judgeEnv, startJudge, withJudge } from "../support/judge.ts"
import { bridgesAndWhale, FAITHFUL, heldJudge, TWO_WRONG } from "../support/turns.ts"

const judge = startJudge(bridgesAndWhale)
afterAll(() => judge.stop())

describe("run mode", () => {
  test("no note is injected; dispose waits for the judgment and reports the flagged claims", async () => {
    const host = createHost({ env: judgeEnv(judge.url, { RFE_JUDGE_LOG: "stderr" }), mode: "run" })
    const session = await host.createSession()
    const userID = await host.userMessage(session, "Tell me about Freedonia")
    await host.toolCall(session, userID, "read", { filePath: FACTS.path }, { output: FACTS.text })
    // opencode run breaks its loop at session.status idle and disposes right away.
    await host.reply(session, userID, TWO_WRONG, { idle: false })
    await host.event("session.status", { sessionID: session, status: { type: "idle" } })
    await host.hooks.dispose()
    expect(host.prompts).toHaveLength(0)
    const report = host.logs.find((line) => line.message.includes("not supported by the sources"))
    expect(report?.level).toBe("warn")
    expect(JSON.stringify(report?.extra)).toContain("7 bridges")
    expect(host.stderr.join("")).toContain("It has 7 bridges.")
  })

  test("dispose outside run mode returns at once", async () => {
    const host = createHost({ env: judgeEnv(judge.url) })
    await host.hooks.dispose()
    expect(host.prompts).toHaveLength(0)
  })
})

describe("session lifecycle", () => {
  test("session.deleted frees the session's state", async () => {
    const host = createHost({ env: judgeEnv(judge.url) })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, FAITHFUL)
    await host.settle()
    expect(host.plugin.sessions.has(session)).toBe(true)
    await host.event("session.deleted", { sessionID: session, info: { id: session } })
    expect(host.plugin.sessions.has(session)).toBe(false)
  })

  test("a session deleted while its reply is judged gets no note, and nothing fails", async () => {
    const { rule, release } = heldJudge()
    await withJudge(rule, async (slow) => {
      const host = createHost({ env: judgeEnv(slow.url) })
      const session = await host.createSession()
      await host.readTurn(session, "Tell me about Freedonia", FACTS, TWO_WRONG)
      await host.event("session.deleted", { sessionID: session, info: { id: session } })
      release()
      await host.settle()
      expect(slow.requests.length).toBeGreaterThan(0)
      expect(host.prompts).toHaveLength(0)
      expect(host.toasts).toHaveLength(0)
      expect(host.logs.filter((line) => line.level === "error")).toEqual([])
    })
  })

  test("the plugin's export surface is one default record", async () => {
    const module = await import("../../src/index.ts")
    expect(Object.keys(module)).toEqual(["default"])
    expect(plugin.id).toBe("ragfaith")
  })
})

describe("mode detection", () => {
  test.each([
    [["bun", "/$bunfs/root/src/index.js", "run", "Read", "facts.txt"], "run"],
    [["bun", "/$bunfs/root/src/index.js", "--print-logs", "run", "hello"], "run"],
    [["bun", "/$bunfs/root/src/index.js", "--log-level", "DEBUG", "run", "hello"], "run"],
    [["bun", "/$bunfs/root/src/index.js", "serve", "--port", "4096"], "serve"],
    [["bun", "/$bunfs/root/src/index.js"], "serve"],
    [["bun", "/$bunfs/root/src/index.js", "/home/me/project"], "serve"],
    [["bun", "/$bunfs/root/src/index.js", "serve", "--hostname", "run"], "serve"],
  ])("%j → %s", (argv, mode) => {
    expect(detectMode(argv)).toBe(mode as "run" | "serve")
  })
})
