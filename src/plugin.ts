// The plugin as opencode loads it: one default export, `server` for opencode 1 and `setup` for opencode 2.
import { PLUGIN_ID } from "./config/config.ts"
import { server } from "./host/v1.ts"
import { setup } from "./host/v2.ts"

/**
 * ragfaith: a live faithfulness check for opencode.
 *
 * After each assistant turn the final reply is split into sentence claims, and an independent LLM judge
 * decides for each claim whether the material the agent actually pulled in this session (file reads, web
 * fetches and searches, optionally command output, plus a log of its own tool calls) supports it. When
 * claims are unfaithful, ONE aggregated note is injected back into the session as a synthetic user message,
 * so the agent corrects itself in an immediate correction turn. Faithful replies are silent.
 *
 * Design decisions
 * - Nothing the host awaits ever waits on the judge: capture and bookkeeping are synchronous and cheap, the
 *   judging starts from the (not awaited) `event` hook at idle and runs fire-and-forget.
 * - Every hook body runs inside one `guard`: a throw in opencode's hooks fails tools or turns, and a
 *   synchronous throw in `event` hangs the session (measured on 1.18.33).
 * - The cascade is bounded: at most `nudgeDepth` notes per real user turn, a claim is never flagged twice
 *   in one turn, and a process-wide ledger makes "one reply, at most one note" hold even when opencode
 *   loads the plugin twice in one process.
 * - A flag must be earned: a contradiction counts only when its quote stands in the source and a second
 *   judge model agrees, and claims about the agent's own work are decided by its tool calls, not a judge.
 * - One file, zero runtime dependencies, one runtime export (opencode's legacy loader calls every export).
 *
 * Privacy
 * - What goes to the judge, per claim: the session's evidence (the most recent `premiseCap` characters of
 *   what the agent read, fetched or searched, and with RFE_EVIDENCE_SCOPE=all what its commands printed),
 *   the lines recording its tool calls, the sentences before the claim, and the user's question of the
 *   turn (shortened; RFE_SEND_QUESTION=0 keeps it back). Never the rest of the conversation, the config or
 *   unrelated files.
 * - Files at sensitive paths (.env*, keys, credentials, ~/.ssh, ...) are never captured, whichever tool
 *   touched them, and secret-looking strings are replaced by `[REDACTED]` before anything is stored, logged
 *   or sent.
 * - On the direct route the judge is the configured endpoint: https, or plain http to loopback, unless the
 *   user opts into clear text with RFE_ALLOW_INSECURE_JUDGE=1; the API key goes only into its Authorization
 *   header. On the opencode route (no judge key) the judge is one of the user's own opencode models,
 *   reached through opencode with the credentials opencode already holds, never the agent's own model.
 */

export default { id: PLUGIN_ID, server, setup }
