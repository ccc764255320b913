/**
 * The opencode judge route: with no judge key, claims are judged through the user's own opencode providers,
 * in hidden judge sessions of their own. The fake host runs those sessions the way opencode 1.18.33 does
 * (hooks, one provider request, the answer in `data.info`/`data.parts`), against the scripted judge.
 */

import { describe, expect, test } from "bun:test"
import { JUDGE_BATCH_PROMPTS, JUDGE_PROMPTS } from "../../src/judge/prompt.ts"
import { rankJudgeModels } from "../../src/judge/route.ts"
import { bridgesJudge, FACTS, WRONG_REPLY } from "../support/fixtures.ts"
import { createHost, type HostOptions } from "../support/host.ts"
import { type JudgeCall, type JudgeReply, withJudge } from "../support/judge.ts"

const WRONG = WRONG_REPLY
const bridges = bridgesJudge()

/** The user's opencode: a scripted provider with the agent's model, a small model and a second judge model. */
const PROVIDERS: NonNullable<HostOptions["providers"]> = [
  {
    id: "mock",
    source: "config",
    models: {
      scripted: { cost: { input: 3, output: 15 } },
      title: { cost: { input: 0.1, output: 0.4 } },
      judge: { cost: { input: 0.2, output: 0.8 } },
    },
  },
  // Found by opencode through an environment key only: never chosen unless the user names it.
  { id: "elsewhere", source: "env", models: { cheap: { cost: { input: 0, output: 0 } } } },
]

async function routeTurn(rule: (call: JudgeCall) => JudgeReply, opts: HostOptions = {}, replies = [WRONG]) {
  return withJudge(rule, async (provider) => {
    const host = createHost({
      providers: PROVIDERS,
      providerURL: provider.url,
      opencodeConfig: { small_model: "mock/title" },
      correct: () => undefined,
      ...opts,
    })
    const session = await host.createSession()
    for (const [i, reply] of replies.entries()) {
      if (i === 0) await host.readTurn(session, "How many bridges?", FACTS, reply)
      else await host.reply(session, await host.userMessage(session, `Again ${i}`), reply)
      await host.settle()
    }
    return { host, session, requests: [...provider.requests] }
  })
}

describe("the opencode judge route", () => {
  test("with no judge key, a flagged claim is noted through the user's own provider", async () => {
    const { host, session, requests } = await routeTurn(bridges)
    expect(host.config.judge.route).toBe("opencode")
    expect(host.prompts).toHaveLength(1)
    expect(host.prompts[0]?.text).toContain('"It has 7 bridges."')
    // Two claims on the small model, and the second opinion of the next model on the flagged one.
    expect(requests.map((request) => [request.model, request.claim])).toEqual([
      ["title", "Fredville is the capital city of Freedonia."],
      ["title", "It has 7 bridges."],
      ["judge", "It has 7 bridges."],
    ])
    for (const judged of host.judgeSessions) {
      expect(judged).toMatchObject({
        parentID: session,
        title: "ragfaith judge",
        agent: "ragfaith-judge",
        deleted: true,
      })
    }
  })

  test("the provider gets the judge prompt alone, no tools, and the plugin's answer budget", async () => {
    const { host } = await routeTurn(bridges)
    for (const judged of host.judgeSessions) {
      const request = judged.request
      expect(request?.messages[0]).toEqual({ role: "system", content: JUDGE_PROMPTS.machine })
      expect(request?.messages[0]?.content).not.toContain("<env>")
      expect(request?.messages[1]?.content).toContain("<claim>")
      expect(request?.tools).toBeUndefined()
      expect(request?.max_tokens).toBe(256)
    }
  })

  test("the config hook registers a hidden judge agent that may use no tool", async () => {
    const { host } = await routeTurn(bridges)
    expect((host.opencodeConfig.agent as Record<string, unknown>)["ragfaith-judge"]).toMatchObject({
      mode: "primary",
      hidden: true,
      temperature: 0,
      permission: { "*": "deny" },
    })
  })

  test("judge sessions are never captured, judged or noted, and none is left open", async () => {
    const { host } = await routeTurn(bridges)
    expect(host.judgeSessions.length).toBeGreaterThan(0)
    for (const judged of host.judgeSessions) {
      expect(host.plugin.sessions.has(judged.id)).toBe(false)
      expect(judged.deleted).toBe(true)
    }
    expect(host.prompts.every((prompt) => !host.judgeSessions.some((judged) => judged.id === prompt.sessionID))).toBe(
      true,
    )
  })

  test("the user is told once which model judges, and how to choose another", async () => {
    const { host } = await routeTurn(bridges, {}, [WRONG, "Fredville has 9 towers."])
    const told = host.logs.filter((line) => line.message.includes("the judge is"))
    expect(told.map((line) => line.message)).toEqual([
      "ragfaith: the judge is mock/title, one of your models; RFE_JUDGE_MAIN_MODEL picks another",
    ])
  })

  test("never the agent's own model: an agent on the small model is judged by another", async () => {
    const { requests } = await routeTurn(bridges, {
      opencodeConfig: { small_model: "mock/scripted", model: "mock/scripted" },
    })
    expect(requests.length).toBeGreaterThan(0)
    expect(requests.some((request) => request.model === "scripted")).toBe(false)
  })

  test.each([
    [
      "cheapest of the agent's provider first, never the agent's, never an env-only provider",
      undefined,
      "mock/scripted",
      ["mock/title", "mock/judge"],
    ],
    ["the small model first", "mock/judge", "mock/scripted", ["mock/judge", "mock/title"]],
    [
      "a small model that is the agent's own is skipped",
      "mock/scripted",
      "mock/scripted",
      ["mock/title", "mock/judge"],
    ],
  ])("rankJudgeModels: %s", (_name, small, agent, expected) => {
    const models = PROVIDERS.flatMap((provider) =>
      Object.entries(provider.models).map(([id, model]) => ({
        id: `${provider.id}/${id}`,
        providerID: provider.id,
        source: provider.source ?? "config",
        price: (model.cost?.input ?? 0) + (model.cost?.output ?? 0),
        answers: true,
      })),
    )
    expect(rankJudgeModels(models, small, agent)).toEqual(expected)
  })

  test.each([
    ["an output limit too small for a verdict", { limit: { context: 8000, output: 64 } }],
    ["a deprecated model", { status: "deprecated" }],
    ["a model with no text output", { capabilities: { output: { text: false } } }],
  ])("the second opinion goes to a model that can answer, not to %s", async (_name, listing) => {
    const providers: NonNullable<HostOptions["providers"]> = [
      {
        id: "mock",
        source: "config",
        models: {
          scripted: { cost: { input: 3, output: 15 } },
          title: { cost: { input: 0.1, output: 0.4 } },
          // The cheapest model after the small one, which a price ranking alone would pick.
          mute: { cost: { input: 0.1, output: 0.5 }, ...listing },
          judge: { cost: { input: 0.2, output: 0.8 } },
        },
      },
    ]
    const { host, requests } = await routeTurn(bridges, { providers })
    expect(requests.map((request) => request.model)).toEqual(["title", "title", "judge"])
    expect(host.prompts).toHaveLength(1)
  })

  test("no usable model: nothing is judged, and the user is told once", async () => {
    const lonely = [{ id: "mock", source: "config", models: { scripted: {} } }]
    const { host, requests } = await routeTurn(bridges, { providers: lonely, opencodeConfig: {} }, [
      WRONG,
      "Fredville has 9 towers.",
    ])
    expect(requests).toEqual([])
    expect(host.prompts).toEqual([])
    // under the first reply, with what to add; not again under the second, and no toast over either
    expect(host.notices.map((notice) => notice.text)).toEqual([
      [
        "Automatic check: nothing is judged: the agent's model is your only one.",
        'Add "small_model" to opencode.json, or a judge key; see /ragfaith.',
      ].join("\n"),
    ])
    expect(host.toasts).toEqual([])
  })

  test("a named judge model that the user cannot call is refused by name", async () => {
    const { host, requests } = await routeTurn(bridges, { env: { RFE_JUDGE_MAIN_MODEL: "mock/nope" } })
    expect(requests).toEqual([])
    expect(host.told()).toContainEqual(expect.stringContaining("mock/nope is not among your opencode models"))
  })

  test("a provider that refuses (401): the session works, one notice, opencode's red toasts taken off, the route rests", async () => {
    const { host, requests } = await routeTurn(() => ({ status: 401 }), {}, [WRONG, "Fredville has 9 towers."])
    expect(host.prompts).toEqual([])
    // The calls of the first reply already in flight reach the provider (two claims); after the refusal the
    // route rests, so the second reply sends nothing and opencode shows no further red error.
    expect(requests.map((request) => request.claim).sort()).toEqual([
      "Fredville is the capital city of Freedonia.",
      "It has 7 bridges.",
    ])
    expect(host.judgeSessions.filter((judged) => judged.sessionError)).toHaveLength(2)
    expect(host.told().filter((told) => told.includes("HTTP 401"))).toHaveLength(1)
    // each red toast opencode shows for a failed judge session is replaced at once by one that lasts 1 ms
    expect(host.toasts.filter((toast) => toast.message.trim() === "")).toEqual([
      { title: undefined, message: " ", variant: "info", duration: 1 },
      { title: undefined, message: " ", variant: "info", duration: 1 },
    ])
    expect(host.toasts.filter((toast) => toast.message.includes("HTTP"))).toEqual([])
  })

  test("the refusal notice keeps what to do within two rows, whatever the model's name", async () => {
    const long = "a-provider-with-a-long-name/a-vendor/a-model-name-that-goes-on-and-on-2026-11"
    const [provider = "", model = ""] = [long.slice(0, long.indexOf("/")), long.slice(long.indexOf("/") + 1)]
    const { host } = await routeTurn(() => ({ status: 401 }), {
      providers: [...PROVIDERS, { id: provider, source: "config", models: { [model]: {} } }],
      env: { RFE_JUDGE_MAIN_MODEL: long },
    })
    const notice = host.notices.find((told) => told.text.includes("HTTP 401"))
    expect(notice?.text.replace(/\n/g, " ")).toStartWith(
      "Automatic check: your provider refused the judge (HTTP 401): check its key. Judging rests 10 minutes.",
    )
    expect(notice?.text.split("\n").length).toBeLessThanOrEqual(2)
  })

  test("a provider that fails (500): each call is cut short at opencode's first retry, then retried by the plugin", async () => {
    const { host, requests } = await routeTurn(() => ({ status: 500 }), { env: { RFE_JUDGE_MAX_ATTEMPTS: "2" } })
    expect(host.prompts).toEqual([])
    expect(requests.length).toBeGreaterThanOrEqual(2)
    expect(host.judgeSessions.every((judged) => judged.aborted && !judged.sessionError && judged.deleted)).toBe(true)
    expect(host.sleeps.length).toBeGreaterThan(0)
  })

  test("tokens come from the judge session's assistant message into the token log", async () => {
    const { host } = await routeTurn(bridges, { env: { RFE_JUDGE_LOG: "stderr" } })
    const lines = host.stderr.map((line) => JSON.parse(line))
    expect(lines.length).toBe(3)
    expect(lines[0]).toMatchObject({ model: "mock/title", outcome: "ok", prompt_tokens: 100, completion_tokens: 12 })
  })

  test("`opencode run` cannot host the route: nothing is judged, and that is said", async () => {
    const { host, requests } = await withJudge(bridges, async (provider) => {
      const h = createHost({
        providers: PROVIDERS,
        providerURL: provider.url,
        mode: "run",
        env: { RFE_JUDGE_LOG: "stderr" },
      })
      const session = await h.createSession()
      await h.readTurn(session, "How many bridges?", FACTS, WRONG)
      await h.hooks.dispose()
      return { host: h, requests: [...provider.requests] }
    })
    expect(requests).toEqual([])
    expect(host.stderr.join("")).toContain("nothing was judged")
  })
})

describe("batched judging on the route", () => {
  test("RFE_JUDGE_BATCH=8: the reply's claims share one judge session, the batch prompt as its system, room to answer", async () => {
    const { host, requests } = await routeTurn(bridges, { env: { RFE_JUDGE_BATCH: "8" } })
    expect(host.prompts).toHaveLength(1)
    expect(host.prompts[0]?.text).toContain('"It has 7 bridges."')
    const first = requests.filter((request) => request.model === "title")
    expect(first).toHaveLength(1)
    expect(first[0]?.batch.map((item) => item.claim)).toEqual([
      "Fredville is the capital city of Freedonia.",
      "It has 7 bridges.",
    ])
    expect(Object.values(JUDGE_BATCH_PROMPTS)).toContain(first[0]?.body.messages[0]?.content ?? "")
    // the second opinion: one claim, one session, as without a batch
    const second = requests.filter((request) => request.model !== "title")
    expect(second.map((request) => [request.batch.length, request.claim])).toEqual([[0, "It has 7 bridges."]])
  })
})
