/**
 * One labelled turn of the noisy corpus as opencode would run it, for the noisy-judge benchmark and the tests
 * that replay the corpus: the question, every tool call, the reply, idle; the claims the note flagged.
 */

import type { NoisyTurn } from "./corpora/noisy-turns.ts"
import { readOutput } from "./fixtures.ts"
import type { createHost } from "./host.ts"

/**
 * The work tree of a turn's project: the corpus describes real projects, so a source file a claim names
 * (`src/server.ts`, `migrations/0006_order_totals.sql`) is taken to exist there, touched or not; a code name
 * such as `loadConfig` or `cache.get` is no file.
 */
export const projectFileExists = (path: string) =>
  /^\/project\/(?:[\w.-]+\/)+[\w.-]+\.(?:ts|tsx|js|py|sql|md|json|toml|ya?ml)$/.test(path)

/** One turn as opencode would run it: the question, every tool call, the reply, idle. */
export async function runTurn(host: ReturnType<typeof createHost>, turn: NoisyTurn) {
  const session = await host.createSession()
  const userID = await host.userMessage(session, turn.question)
  for (const source of turn.sources) {
    const path = `/project/${source.target}`
    if (source.tool === "read") {
      await host.toolCall(session, userID, "read", { filePath: path }, readOutput(path, source.text))
    } else if (source.tool === "edit") {
      await host.toolCall(session, userID, "edit", { filePath: path, oldString: "a", newString: "b" }, { output: "" })
    } else if (source.tool === "bash") {
      const args = { command: source.target, description: "run" }
      await host.toolCall(session, userID, "bash", args, { output: source.text, metadata: { exit: source.exit ?? 0 } })
    } else {
      await host.toolCall(
        session,
        userID,
        "webfetch",
        { url: source.target, format: "markdown" },
        { output: source.text },
      )
    }
  }
  const before = host.prompts.length
  await host.reply(session, userID, turn.reply)
  await host.settle()
  const note = host.prompts.slice(before)[0]?.text ?? ""
  return [...note.matchAll(/^\d+\. "(.+?)" \[/gm)].map((match) => match[1] ?? "")
}
