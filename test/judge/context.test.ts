// Claims travel to the judge with their context: the user's question and the sentences before them.

import { describe, expect, test } from "bun:test"
import { splitClaims } from "../../src/claims/split.ts"
import { FACTS, WRONG_REPLY } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { judgeEnv, withJudge } from "../support/judge.ts"
import { judgedTurn } from "../support/turns.ts"

const WRONG = WRONG_REPLY

describe("claims in context", () => {
  test("each claim carries the sentences before it, and the raw form keeps inline code", () => {
    const { claims } = splitClaims(
      "The retry helper lives in `src/retry.ts`. It makes 5 attempts. Each wait doubles the last one.",
      50,
    )
    expect(claims.map((claim) => [claim.text, claim.before])).toEqual([
      ["The retry helper lives in src/retry.ts.", undefined],
      ["It makes 5 attempts.", "The retry helper lives in src/retry.ts."],
      ["Each wait doubles the last one.", "The retry helper lives in src/retry.ts. It makes 5 attempts."],
    ])
    expect(claims[0]?.raw).toBe("The retry helper lives in `src/retry.ts`.")
  })

  test("the judge gets the question and the preceding sentence, marked as context, after the sources", async () => {
    const { requests } = await judgedTurn(() => ({ verdict: "faithful", source: "S1" }))
    const second = requests.find((request) => request.claim === "It has 7 bridges.")?.userContent ?? ""
    expect(second).toContain("\n</sources>\n\n<question>\nHow many bridges does Fredville have?\n</question>\n\n")
    expect(second).toEndWith(
      "<context>\nFredville is the capital city of Freedonia.\n</context>\n<claim>\nIt has 7 bridges.\n</claim>",
    )
    expect(requests[0]?.body.messages[0]?.content).toContain("judge the claim alone")
  })

  test("the sentences before a claim are redacted like everything else that leaves", async () => {
    const token = `ghp_${"Zq9X".repeat(9)}`
    const { requests } = await judgedTurn(
      () => ({ verdict: "faithful", source: "S1" }),
      {},
      `The deploy token ${token} was rotated by the release job. It expires at the end of the month.`,
    )
    const later = requests.find((request) => request.claim.startsWith("It expires"))
    expect(later?.userContent).toContain(
      "<context>\nThe deploy token [REDACTED] was rotated by the release job.\n</context>",
    )
    for (const request of requests) expect(request.raw).not.toContain(token)
  })

  test("RFE_SEND_QUESTION=0 keeps the user's question on this machine", async () => {
    const { requests } = await judgedTurn(() => ({ verdict: "faithful", source: "S1" }), { RFE_SEND_QUESTION: "0" })
    expect(requests.length).toBeGreaterThan(0)
    for (const request of requests) {
      expect(request.userContent).not.toContain("<question>")
      expect(request.raw).not.toContain("How many bridges")
    }
  })

  test("the question is redacted and shortened before it leaves", async () => {
    const token = `ghp_${"Zq9X".repeat(9)}`
    await withJudge(
      () => ({ verdict: "faithful", source: "S1" }),
      async (judge) => {
        const host = createHost({ env: judgeEnv(judge.url) })
        const session = await host.createSession()
        await host.readTurn(session, `My token is ${token}. ${"Why? ".repeat(200)}`, FACTS, WRONG)
        await host.settle()
        const question = /<question>\n([\s\S]*?)\n<\/question>/.exec(judge.requests[0]?.userContent ?? "")?.[1] ?? ""
        expect(question).toStartWith("My token is [REDACTED].")
        expect(question.length).toBeLessThanOrEqual(300)
      },
    )
  })
})
