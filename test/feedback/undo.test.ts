/**
 * Undo and redo over the plugin's own messages. opencode 1.18.33's TUI undoes the last user message and copies
 * its visible text into the prompt box; these tests play the session.updated events an undo or redo sends and
 * check what the plugin tells the TUI (`tui.publish`) and where it moves the revert point. What the screen
 * then shows is read from the real TUI in test/live/tui.test.ts.
 */

import { describe, expect, test } from "bun:test"
import type { HostClient } from "../../src/config/effects.ts"
import { CLEAR_PROMPT, nextStep, ownerOf, promptTextOf } from "../../src/feedback/undo.ts"
import { newSession } from "../../src/state/session.ts"
import { bridgesJudge, FACTS, WRONG_REPLY } from "../support/fixtures.ts"
import { createHost, type HostOptions } from "../support/host.ts"
import { judgeEnv, withJudge } from "../support/judge.ts"

const QUESTION = "How many bridges does Fredville have?"
const CLEARED = CLEAR_PROMPT.map((command) => ({ type: "tui.command.execute", properties: { command } }))

/** A turn whose reply drew a note and a correction: the user's message, the note, and the host. */
async function corrected(opts: HostOptions = {}) {
  return withJudge(bridgesJudge(), async (judge) => {
    const host = createHost({ correct: () => "Fredville has 3 bridges.", ...opts, env: judgeEnv(judge.url) })
    const session = await host.createSession()
    const { userID } = await host.readTurn(session, QUESTION, FACTS, WRONG_REPLY)
    await host.settle()
    const [noteID = ""] = host.plugin.sessions.get(session)?.noteMessages ?? []
    return { host, session, userID, noteID }
  })
}

/** The plugin answers a revert on its own time (the event hook is not awaited): wait until it has. */
const answered = async (host: ReturnType<typeof createHost>, count: number) => {
  for (let i = 0; i < 100 && host.published.length + host.reverts.length < count; i++) await Bun.sleep(2)
  await Bun.sleep(5)
}

describe("undo onto the plugin's note", () => {
  test("goes back to the user's own message, with its text in the prompt box instead of the notice", async () => {
    const { host, session, userID, noteID } = await corrected()
    expect(noteID).toStartWith("msg_")
    await host.revert(session, noteID)
    await answered(host, 4)
    expect(host.reverts).toEqual([{ sessionID: session, messageID: userID }])
    expect(host.published).toEqual([...CLEARED, { type: "tui.prompt.append", properties: { text: QUESTION } }])
  })

  test("the plugin's own revert to the user's message is answered with nothing more", async () => {
    const { host, session, userID, noteID } = await corrected()
    await host.revert(session, noteID)
    await answered(host, 4)
    expect(host.plugin.sessions.get(session)?.revertedTo).toBe(userID)
    expect(host.reverts).toHaveLength(1)
    expect(host.published).toHaveLength(3)
  })

  test("an undo onto the user's own message is the TUI's alone", async () => {
    const { host, session, userID } = await corrected()
    await host.revert(session, userID)
    await answered(host, 1)
    expect(host.published).toEqual([])
    expect(host.reverts).toEqual([])
  })

  test("a plugin loaded twice answers one undo once", async () => {
    const { host, session, noteID } = await corrected({ instances: 2 })
    await host.revert(session, noteID)
    await answered(host, 8)
    expect(host.reverts).toHaveLength(1)
    expect(host.published).toHaveLength(3)
  })

  test("when the user moves the revert point meanwhile, their step stands: the prompt box is only emptied", async () => {
    const moved: { to?: () => Promise<void> } = {}
    const wrapClient = (client: HostClient): HostClient => ({
      ...client,
      session: {
        ...client.session,
        message: async (call) => {
          await moved.to?.()
          return client.session.message?.(call)
        },
      },
    })
    const { host, session, userID, noteID } = await corrected({ wrapClient })
    moved.to = () => host.revert(session, userID)
    await host.revert(session, noteID)
    await answered(host, 3)
    expect(host.reverts).toEqual([])
    expect(host.published).toEqual(CLEARED)
  })
})

describe("undo onto the plugin's notice of a refused key", () => {
  test("goes back to the user's own message, as undo does without the plugin", async () => {
    const { host, session, userID } = await withJudge(
      () => ({ status: 401 }),
      async (judge) => {
        const h = createHost({ env: judgeEnv(judge.url) })
        const id = await h.createSession()
        const turn = await h.readTurn(id, QUESTION, FACTS, WRONG_REPLY)
        await h.settle()
        return { host: h, session: id, userID: turn.userID }
      },
    )
    const [noticeID = ""] = host.plugin.sessions.get(session)?.noteMessages ?? []
    expect(host.notices).toHaveLength(1)
    expect(noticeID).toStartWith("msg_")
    await host.revert(session, noticeID)
    await answered(host, 4)
    expect(host.reverts).toEqual([{ sessionID: session, messageID: userID }])
    expect(host.published).toEqual([...CLEARED, { type: "tui.prompt.append", properties: { text: QUESTION } }])
  })
})

describe("undo onto a /ragfaith report", () => {
  test("empties the prompt box the TUI filled with the report, and moves nothing", async () => {
    const { host, session } = await corrected()
    await host.command(session, "ragfaith")
    const [reportID = ""] = host.plugin.sessions.get(session)?.reportMessages ?? []
    expect(reportID).toStartWith("msg_")
    await host.revert(session, reportID)
    await answered(host, 2)
    expect(host.published).toEqual(CLEARED)
    expect(host.reverts).toEqual([])
  })
})

describe("redo onto the plugin's note", () => {
  test("with nothing after it: all the way back, and the prompt box emptied as the TUI's last redo does", async () => {
    const { host, session, userID, noteID } = await corrected()
    await host.revert(session, userID)
    await host.revert(session, noteID)
    await answered(host, 3)
    expect(host.reverts).toEqual([{ sessionID: session, messageID: undefined }])
    expect(host.published).toEqual(CLEARED)
    expect(host.plugin.sessions.get(session)?.revertedTo).toBeUndefined()
  })

  test("with a report after it: on to the report, the next step", async () => {
    const { host, session, userID, noteID } = await corrected()
    await host.command(session, "ragfaith")
    const [reportID = ""] = host.plugin.sessions.get(session)?.reportMessages ?? []
    await host.revert(session, userID)
    await host.revert(session, noteID)
    await answered(host, 1)
    expect(host.reverts).toEqual([{ sessionID: session, messageID: reportID }])
    expect(host.published).toEqual([])
  })
})

describe("the steps of a turn", () => {
  const state = () => {
    const s = newSession("ses_1")
    for (const id of ["msg_1", "msg_2", "msg_3", "msg_4", "msg_5"])
      s.userMessages.set(id, { agent: "build", model: undefined })
    s.noteMessages.add("msg_2")
    s.noteMessages.add("msg_3")
    s.reportMessages.add("msg_4")
    return s
  }

  test("a note belongs to the last message before it that is the user's", () => {
    expect(ownerOf(state(), "msg_3")).toBe("msg_1")
    expect(ownerOf(state(), "msg_1")).toBeUndefined()
  })

  test("redo past a note stops at the next message that is no note", () => {
    expect(nextStep(state(), "msg_2")).toBe("msg_4")
    expect(nextStep(state(), "msg_5")).toBeUndefined()
  })

  test("the prompt text of a message is its text parts but the synthetic ones, as the TUI copies them", () => {
    const message = {
      parts: [
        { type: "text", text: "[ragfaith] the note", synthetic: true },
        { type: "text", text: "Read facts.txt " },
        { type: "file", url: "file:///facts.txt" },
        { type: "text", text: "please" },
      ],
    }
    expect(promptTextOf(message)).toBe("Read facts.txt please")
    expect(promptTextOf(undefined)).toBe("")
  })
})
