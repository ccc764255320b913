// Section 3 of `bun bench/run.ts`: streaming, what the hooks cost while a reply's parts arrive.
import { createHost } from "../../test/support/host.ts"
import { judgeEnv } from "../../test/support/judge.ts"
import { breathe, fmtBytes, fmtMs, median, repeatTo, table } from "../lib.ts"

import { hookOf, type Report } from "./common.ts"

export async function benchStreaming({ print, targets }: Report) {
  print("## 3. Streaming: `message.part.delta` + cumulative `message.part.updated` through the event hook")
  print()
  const host = createHost({ env: judgeEnv("http://127.0.0.1:9/v1") })
  const event = hookOf(host, "event")
  const session = await host.createSession()
  const userID = await host.userMessage(session, "Write a long explanation")
  const chunk = 8
  const full = repeatTo(
    "The scheduler keeps one queue per worker and steals from the longest queue when its own is empty. ",
    10_000 * chunk,
  )
  let replies = 0
  /** One reply streamed as `steps` deltas, each followed by the part with the cumulative text so far. */
  const build = (steps: number) => {
    const messageID = `msg_stream_${++replies}`
    const partID = `prt_stream_${replies}`
    const events: unknown[] = []
    for (let i = 0; i < steps; i++) {
      const delta = full.slice(i * chunk, (i + 1) * chunk)
      events.push({
        event: {
          id: `evt_d${replies}_${i}`,
          type: "message.part.delta",
          properties: { sessionID: session, messageID, partID, field: "text", delta },
        },
      })
      events.push({
        event: {
          id: `evt_u${replies}_${i}`,
          type: "message.part.updated",
          properties: {
            sessionID: session,
            part: {
              id: partID,
              messageID,
              sessionID: session,
              type: "text",
              text: full.slice(0, (i + 1) * chunk),
              time: { start: 1 },
            },
            time: 1,
          },
        },
      })
    }
    return { messageID, events }
  }
  const stream = async (steps: number) => {
    const { messageID, events } = build(steps)
    const info = { id: messageID, parentID: userID, role: "assistant", sessionID: session }
    await event({ event: { id: `evt_m${replies}`, type: "message.updated", properties: { sessionID: session, info } } })
    Bun.gc(true)
    const started = performance.now()
    for (const item of events) await event(item)
    const elapsed = performance.now() - started
    const stored = host.plugin.sessions.get(session)?.reply?.texts.get(`prt_stream_${replies}`)
    if (stored?.length !== steps * chunk) throw new Error("the streamed reply text was not kept")
    return elapsed
  }
  const sizes = [2_500, 10_000]
  const totals = sizes.map(() => [] as number[])
  await stream(2_500)
  for (let round = 0; round < 9; round++) {
    for (let i = 0; i < sizes.length; i++) totals[i]?.push(await stream(sizes[i] ?? 0))
    await breathe()
  }
  const rows = sizes.map((steps, i) => {
    const total = median(totals[i] ?? [])
    return [
      steps.toLocaleString("en"),
      (2 * steps).toLocaleString("en"),
      fmtBytes(steps * chunk),
      fmtMs(total),
      fmtMs(total / (2 * steps)),
    ]
  })
  print(table(["deltas", "event-hook calls", "final text", "total (median of 9)", "per event"], rows))
  const ratio = median(totals[1] ?? []) / median(totals[0] ?? [])
  print()
  print(`Ratio 10,000 / 2,500 deltas: ${ratio.toFixed(2)}× (linear ≈ 4, quadratic ≈ 16).`)
  print()
  targets.push(["3. streaming 10,000 / 2,500", "≈ 4× (linear)", `${ratio.toFixed(2)}×`, ratio < 6 ? "met" : "MISSED"])
}
