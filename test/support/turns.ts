/**
 * Judged turns through the fake host, as the behaviour tests of several folders run them: the agent reads
 * facts.txt and replies, the scripted judge answers by a rule, and the correction turn does nothing unless a
 * test says otherwise. Also the rule and replies the conductor's and the host's lifecycle tests share.
 */

import { FACTS, WRONG_REPLY } from "./fixtures.ts"
import { createHost, type HostOptions } from "./host.ts"
import { type JudgeCall, type JudgeReply, type JudgeRule, judgeEnv, withJudge } from "./judge.ts"

/** One turn on a host made with `opts` (its env joined to the judge's): the host and the session. */
export async function turn(rule: (call: JudgeCall) => JudgeReply, opts: HostOptions = {}, reply = WRONG_REPLY) {
  return withJudge(rule, async (judge) => {
    const host = createHost({ correct: () => undefined, ...opts, env: judgeEnv(judge.url, opts.env) })
    const session = await host.createSession()
    await host.readTurn(session, "How many bridges does Fredville have?", FACTS, reply)
    await host.settle()
    return { host, session }
  })
}

/** One turn with `env` joined to the judge's: the host and every request the judge saw. */
export async function judgedTurn(
  rule: (call: JudgeCall) => JudgeReply,
  env: Record<string, string> = {},
  reply = WRONG_REPLY,
) {
  return withJudge(rule, async (judge) => {
    const host = createHost({ env: judgeEnv(judge.url, env), correct: () => undefined })
    const session = await host.createSession()
    await host.readTurn(session, "How many bridges does Fredville have?", FACTS, reply)
    await host.settle()
    return { host, requests: [...judge.requests] }
  })
}

/**
 * A turn that reads `src/app.ts`, fails to edit it as opencode reports a failed edit (an error part), makes
 * `more` further calls, then says it updated the file; the judge holds everything up, so a note is the records'.
 */
export async function failedEditTurn(directory: string, more = 0) {
  return withJudge(
    () => ({ verdict: "faithful", source: "S1" }),
    async (judge) => {
      const host = createHost({ env: judgeEnv(judge.url), correct: () => undefined, directory })
      const id = await host.createSession()
      const userID = await host.userMessage(id, "Use port 8080 in the app")
      await host.toolCall(
        id,
        userID,
        "read",
        { filePath: `${directory}/src/app.ts` },
        { output: "1: export const port = 80" },
      )
      const args = { filePath: `${directory}/src/app.ts`, oldString: "port = 81", newString: "port = 8080" }
      await host.toolCall(id, userID, "edit", args, { error: "Error: oldString not found in content" })
      for (let i = 0; i < more; i++)
        await host.toolCall(
          id,
          userID,
          "read",
          { filePath: `${directory}/docs/page${i}.md` },
          { output: `1: page ${i}` },
        )
      await host.reply(id, userID, "I updated `src/app.ts` so the server listens on port 8080.")
      await host.settle()
      return { host, session: id }
    },
  )
}

/** Verdicts by rule: the bridge count and the whale are wrong, the population is not in the file. */
export const bridgesAndWhale: JudgeRule = ({ claim }) => {
  if (/7 bridges|blue whale|seven bridges|nine bridges/i.test(claim)) {
    return {
      verdict: "unfaithful",
      source: "S1",
      quote: "It has 3 bridges",
      reason: "the file says 3 bridges and the red fox",
    }
  }
  if (/population|founded/i.test(claim)) return { verdict: "unverifiable", source: "", reason: "not in the sources" }
  return { verdict: "faithful", source: "S1", reason: "stated in facts.txt" }
}

/** A judge that flags every claim, but only answers once `release()` is called. */
export function heldJudge() {
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  const rule = async () => {
    await gate
    return { verdict: "unfaithful", source: "S1", quote: "It has 3 bridges", reason: "contradicted" }
  }
  return { rule, release }
}

export const FAITHFUL = "Fredville is the capital city of Freedonia. The national animal of Freedonia is the red fox."
export const TWO_WRONG =
  "Fredville is the capital city of Freedonia. It has 7 bridges. Its national animal is the blue whale."
