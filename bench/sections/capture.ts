// Section 2 of `bun bench/run.ts`: `tool.execute.after`, premise capture of read outputs up to 10 MB.
import { readOutput } from "../../test/support/fixtures.ts"
import { createHost } from "../../test/support/host.ts"
import { judgeEnv } from "../../test/support/judge.ts"
import { fmtBytes, fmtMs, KB, MB, summarize, table, tsCode } from "../lib.ts"

import { hookOf, type Report } from "./common.ts"

/** A read output of about `size` bytes of TypeScript, with a secret-looking line every 40 lines. */
function bigReadOutput(path: string, size: number) {
  let code = tsCode(size, { seed: 11, secretEvery: 40 })
  let output = readOutput(path, code)
  // The `N: ` line numbers add ~15%; scale the code once so the whole output is the size asked for.
  code = tsCode(Math.round((size * code.length) / output.output.length), { seed: 11, secretEvery: 40 })
  output = readOutput(path, code)
  return output
}

export async function benchCapture({ print, targets, findings }: Report) {
  print("## 2. `tool.execute.after` (premise capture) on read outputs")
  print()
  const sizes = [10 * KB, MB, 10 * MB]
  const host = createHost({ env: judgeEnv("http://127.0.0.1:9/v1") })
  const after = hookOf(host, "tool.execute.after")
  const session = await host.createSession()
  const path = "/project/src/generated.ts"
  const outputs = sizes.map((size) => bigReadOutput(path, size))
  const samples = sizes.map(() => [] as number[])
  const call = async (index: number) => {
    const output = outputs[index]
    const input = { tool: "read", sessionID: session, callID: `call_${index}`, args: { filePath: path } }
    const started = performance.now()
    await after(input, output)
    return performance.now() - started
  }
  for (let i = 0; i < sizes.length; i++) for (let w = 0; w < 30; w++) await call(i)
  // Interleaved rounds, so drift on a noisy machine hits every size alike.
  for (let round = 0; round < 20; round++) {
    for (let i = 0; i < sizes.length; i++) for (let k = 0; k < 50; k++) samples[i]?.push(await call(i))
  }
  const premise = host.plugin.sessions.get(session)?.premises.at(-1)
  const text = premise?.text ?? ""
  const leaked = /sk-proj-[A-Za-z0-9]{20}|ghp_[A-Za-z0-9]{36}|AKIA[A-Z0-9]{16}|admin:[A-Za-z0-9]{16}@/.test(text)
  const stats = samples.map((s) => summarize(s))
  const rows = sizes.map((size, i) => {
    const s = stats[i]
    return [fmtBytes(outputs[i]?.output.length ?? size), String(s?.n), fmtMs(s?.p50 ?? NaN), fmtMs(s?.p99 ?? NaN)]
  })
  print(table(["read output", "calls", "p50", "p99"], rows))
  const ratio = (stats[2]?.p50 ?? NaN) / (stats[0]?.p50 ?? NaN)
  const ratio99 = (stats[2]?.p99 ?? NaN) / (stats[0]?.p99 ?? NaN)
  print()
  print(
    `Ratio 10 MB / 10 KB: p50 ${ratio.toFixed(2)}×, p99 ${ratio99.toFixed(2)}× (target p50 ≤ 3). ` +
      `Stored premise: ${fmtBytes(text.length)}, ${text.split("[REDACTED]").length - 1} redactions, ` +
      `raw secrets left: ${leaked ? "YES" : "none"}.`,
  )
  print()
  if (leaked) findings.push("a secret survived premise capture in section 2")
  targets.push(["2. capture 10 MB / 10 KB (p50)", "≤ 3×", `${ratio.toFixed(2)}×`, ratio <= 3 ? "met" : "MISSED"])
}
