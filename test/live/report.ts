// `bun test/live/report.ts`: runs the live suite and writes docs/verification.md from what the scripted endpoint
// received in each scenario. The prose below says what each scenario is meant to show; the digests, notes,
// results and durations come from the run. `--out <file>` writes elsewhere; `--from <json>` renders an earlier
// run's records (RFE_LIVE_REPORT output) without running the suite again.

import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { OPENCODE_BIN, REPO_DIR, type ScenarioRecord } from "./harness.ts"

// What each scenario does and what a pass shows, keyed by the record name's first word.
const ABOUT: Record<string, { title: string; does: string; shows: string }> = {
  "1": {
    title: "1. Faithful reply after a read",
    does: "The agent reads `facts.txt`, then paraphrases two facts correctly.",
    shows:
      "After the turn went idle the plugin judged each sentence (one judge request per claim, `model=judge-main`, " +
      "`Authorization: Bearer <test key>`, `temperature 0`, `reasoning.exclude`, `max_tokens 256`, the file in the " +
      "sources). Both verdicts were faithful, so nothing was injected: the agent got exactly two requests. " +
      "`RFE_JUDGE_LOG` has one token line per judge request and no claim text.",
  },
  "2": {
    title: "2. One unfaithful claim: one note and an immediate correction",
    does: "Same read, but the reply says the river has seven bridges (the file says 3).",
    shows:
      "Exactly one synthetic user message starting with `[ragfaith]` is stored, naming the claim, its source " +
      "(`facts.txt:1-4`) and the judge's reason, and not the faithful sentence. The very next agent request has the note " +
      "as its last user message, ran with the user's agent (`build`) and model (`mock/scripted`), and its corrected " +
      "reply was judged once more and passed. The same message carries a second, plain text part: the notice the " +
      "user sees, two lines at most, naming the wrong part with the source's words for it (`Automatic check: \"Seven " +
      'bridges span the Zeppo river in…" conflicts with facts.txt:1-4, which says "3 bridges". …`), which the ' +
      "model also receives after the instruction, told that it needs no answer.",
  },
  "3": {
    title: "3. Cascade bound: a judge that always says unfaithful",
    does: "The judge flags every claim; each correction reply makes a new wrong claim. `RFE_NUDGE_DEPTH=2` (the default).",
    shows:
      "Two notes, two correction turns, and then silence: the reply to the second note is not judged at all, " +
      "so the cascade stops at the depth even with a judge that never agrees.",
  },
  "4": {
    title: "4. Strict mode: an unverifiable claim gets the provenance request",
    does: "`RFE_STRICTNESS=strict`; the judge calls the founding-year sentence unverifiable.",
    shows:
      "The note lists the claim with `[no source supports it]` and adds the provenance arm: cite the source it " +
      "rests on, or say it is the agent's own knowledge or an inference.",
  },
  "5": {
    title: "5. No premises, no judge",
    does: "The agent answers without calling any tool.",
    shows: "No judge request at all: replies are judged only when the session holds sources or tool calls.",
  },
  "6": {
    title: "6. Secrets and .env never reach the judge",
    does:
      "`deploy.md` holds a GitHub token, an AWS key id, an `sk-` key and a PEM private key (all generated at run time); " +
      "`.env` holds a marker and a password. The agent reads both.",
    shows:
      "Both reads completed and the agent itself saw the secrets (the plugin does not alter tool output), yet no " +
      "judge request contains any of them, nor anything from `.env`; the redacted file appears with `[REDACTED]`.",
  },
  "7a": {
    title: "7a. Flaky judge: 429, 500, then 200",
    does: "The first judge answer is HTTP 429, the second HTTP 500, then verdicts.",
    shows: "The plugin retried with backoff, the verdict arrived on the third attempt, and the note followed.",
  },
  "7b": {
    title: "7b. Judge down (closed port)",
    does: "`RFE_JUDGE_BASE_URL` points at a loopback port nobody listens on.",
    shows:
      "The session completed normally (`finish: stop`, no error), no note, no toast; one notice under the reply " +
      "(a message of one ignored part, no turn) saying the judge is unreachable and to check `RFE_JUDGE_BASE_URL`, " +
      "without the key; and the server still answers.",
  },
  "7c": {
    title: "7c. Judge answers 401",
    does: "Every judge request gets HTTP 401.",
    shows:
      "No retries (at most one request per claim), no note, the turn completed, no toast; one notice under the " +
      "reply naming `RFE_JUDGE_API_KEY`, and the key appears neither in the notice nor in the opencode log.",
  },
  "7d": {
    title: "7d. Slow judge (2.5 s per answer)",
    does: "Every judge answer is delayed by 2.5 s.",
    shows:
      "The user's prompt call returned before the first verdict: judging never holds up the turn. The note still " +
      "arrived once the verdict did.",
  },
  "7e": {
    title: "7e. Unreadable judge answers",
    does: "The judge answers prose without a verdict.",
    shows:
      "One retry with `max_tokens 512`, then the claim counts as unverifiable, which normal mode does not flag: " +
      "no note, the turn completed.",
  },
  "8": {
    title: "8. Subagent (task tool) sessions never get a note",
    does:
      "The agent delegates to the `general` subagent with the `task` tool; the subagent reads the file and makes the " +
      "wrong bridge claim; the parent then replies.",
    shows:
      "The child session (with `parentID` = the parent) holds the wrong claim but no note; its claim never went to " +
      "the judge; only the parent's final reply was judged; no agent request answered a note.",
  },
  "9a": {
    title: "9a. Doc-pull check: install without docs",
    does:
      "The agent runs `npm install leftpad-x` through the bash tool (a fake `npm` shadows the real one on PATH, so " +
      "nothing can reach a registry).",
    shows:
      "A `tui.toast.show` event titled `ragfaith`: `No docs for leftpad-x were read in this session: the agent may " +
      "be guessing its API.`",
  },
  "9b": {
    title: "9b. Doc-pull check: docs fetched first",
    does: "The agent first webfetches a loopback page documenting leftpad-x, then installs it.",
    shows: "The webfetch completed (the page request is in the digest) and no doc-pull toast was raised.",
  },
  "10": {
    title: "10. `opencode run`",
    does:
      "`opencode run --print-logs --format json --model mock/scripted Read facts.txt …` with the wrong bridge claim " +
      "and `RFE_JUDGE_LOG=stderr`.",
    shows:
      "The process exits 0. The judgment that started at idle finished before exit (judge requests in the digest), " +
      "no note was injected (no agent request answers a note; `opencode export` shows no synthetic message and ends " +
      "with the assistant reply), and the flagged claim was written to stderr by the plugin and as a `level=WARN` " +
      "opencode log line (seen through `--print-logs`), as the README documents for run mode. The log *file* is " +
      "another matter: `opencode run` often loses the last lines of its log file at exit (opencode's own " +
      '`"exiting loop"` line included), so the last line above records whether the warning survived there this time.',
  },
  "10b": {
    title: "10b. `opencode run` with a slow judge",
    does: "As 10, but every judge answer takes 3 s, longer than opencode takes to reach `dispose` after the idle.",
    shows:
      "The plugin's `dispose` hook held the exit until the verdicts were in: the process exited after the last judge " +
      "answer, and the flagged claim was still reported. (Whether opencode would have exited earlier without the " +
      "plugin's wait was not run here; a probe plugin measured that it drops pending plugin work at exit.)",
  },
  "11": {
    title: "11. `/ragfaith` after a flagged reply",
    does:
      "Scenario 2's session (a wrong bridge count, one note, the correction), then `POST /session/{id}/command` with " +
      "`ragfaith`, as the TUI sends a typed slash command.",
    shows:
      "The agent and the judge got no request for the command. The newest stored message is a user message whose " +
      "only text part is `ignored` (shown, never sent to a model) and holds the report: the reply that drew the note " +
      "first, with the flagged statement, `facts.txt` and the quoted line, then the corrected reply. opencode answers " +
      "the command with HTTP 500 and logs one ERROR line (`NotAnError: ragfaith answered /ragfaith itself, …`): that " +
      "is how the plugin stops the turn before any model is asked.",
  },
  "11c": {
    title: "11c. A wrong judge, and the agent keeps its statement with the source",
    does:
      "The reply is right (three bridges) but the judge flags it; the agent, told by the note how to keep a " +
      "statement it re-checked, writes it again ending with `(source: facts.txt)`. Then `/ragfaith`, and the same " +
      "answer in a new turn.",
    shows:
      "One note only: the verification round judged the statement with its citation and found it faithful. The " +
      "report says `Disputed by the agent, citing facts.txt, and upheld.` and counts `1 dispute by the agent " +
      "upheld`; the same statement in the next turn drew no note.",
  },
  "11b": {
    title: "11b. `/ragfaith off` and `/ragfaith on`",
    does: "`/ragfaith off`, a new prompt, `/ragfaith on`, another prompt.",
    shows: "No judge request while off; judging resumes after on; each command answered with one ignored message.",
  },
  "12a": {
    title: "12a. No judge key: the judge through opencode's own provider",
    does:
      "No `RFE_JUDGE_*` at all, `small_model` set to the mock provider's `judge` model; the reply has the wrong " +
      "bridge count.",
    shows:
      "Every judge request came through opencode (the endpoint saw it as a provider call), on the small model first " +
      "and a second opinion on another of the user's models, never the agent's. Each carried one system message that " +
      "is exactly the judge prompt (no AGENTS.md, no environment block), no tools, `max_tokens 256`; no title request " +
      "was made for a judge session, and no judge session was left in the session list. The note and the correction " +
      "followed as with a direct judge. The plugin said once, in a notice under the reply and in no toast, which " +
      "model judges and how to pick another.",
  },
  "12b": {
    title: "12b. Route: the provider answers 500",
    does: "As 12a, but the provider answers every judge call with HTTP 500.",
    shows:
      "The plugin cuts each judge session short at opencode's first retry, so opencode raises no `session.error` " +
      "(the TUI would show each as a red toast); the user's turn ended normally and one notice under the reply " +
      "said the judge fails.",
  },
  "12c": {
    title: "12c. Route: the provider refuses the key (401)",
    does: "As 12a, but the provider answers HTTP 401.",
    shows:
      "No retries; one notice under the reply saying the provider refused; opencode's own `session.error` for the " +
      "judge sessions (a red toast in the TUI), each followed by a toast of the plugin's that lasts 1 ms and so " +
      "takes it off the screen; the user's session still answers.",
  },
  load: {
    title: "Loading",
    does: "",
    shows: "",
  },
}

const LOAD_ABOUT: Record<string, string> = {
  "load copy":
    "`src/index.ts` copied to `.opencode/plugins/ragfaith.ts`, configured by env only (opencode passes no options). " +
    "The judge request carries `model=judge-from-env`.",
  "load npm":
    "`npm pack` of this checkout, installed offline into opencode's npm plugin cache, declared as " +
    '`["@resonanceee/opencode-ragfaith", {judge: {...}}]` with no `RFE_JUDGE_*` env at all. The judge request ' +
    "carries `model=judge-from-options`, so the options tuple reached `server()`.",
  "load file": '`["file:///…/src/index.ts", {judge: {...}}]`, again without any judge env: `model=judge-from-options`.',
}

// What each TUI scenario shows, and which of its screens the report prints.
const TUI_ABOUT: Record<string, { title: string; does: string; shows: string; screens: string[] }> = {
  T1: {
    title: "T1. In the TUI: a faithful reply, a correction, and `/ragfaith`",
    does:
      "The real `opencode` TUI (100x40, tmux, plugin copied into the project). A prompt the agent answers " +
      "correctly after reading `facts.txt`; a second prompt it answers with the wrong bridge count; then `/ragfaith` " +
      "typed into the prompt (two Enters: the first completes the name in the popup).",
    shows:
      "After the faithful reply the screen holds nothing from the plugin, although it was judged. After the wrong " +
      "reply the notice stands between it and the correction, says it is an automatic check, names the statement " +
      'and `facts.txt:1-4`, and the source\'s words for its wrong part ("3 bridges"). ' +
      "`/ragfaith` shows the report where the user typed it, the flagged reply first, and the " +
      "scripted agent got no request for it.",
    screens: ["faithful-reply", "correction", "ragfaith-report"],
  },
  ...Object.fromEntries(
    (["a", "b"] as const).map((size) => [
      `T2${size}`,
      {
        title: `T2${size}. In the TUI (${size === "a" ? "80x24" : "120x40"}): the judge refuses its key`,
        does:
          "Every judge request gets HTTP 401; the pane is read every 20 ms from the question until the plugin has " +
          "said so; then `/ragfaith`.",
        shows:
          "No toast opened: on every screen from the one where the reply was first drawn whole, its row (and the " +
          "wrong number in it) stood whole. Under the reply, a notice in two whole rows says the key was refused, " +
          "names `RFE_JUDGE_API_KEY` and says replies go unchecked; it stays in the transcript. The report " +
          "then says the last reply was not judged, that the judge did not answer for its statements, and the " +
          "judge's last failure with what to check (`the judge refused the key (HTTP 401): check RFE_JUDGE_API_KEY`); " +
          "with nothing judged, its totals carry no token or cache figures.",
        screens: ["refused-key-notice", "refused-key-report"],
      },
    ]),
  ),
  T3: {
    title: "T3. In the TUI: no judge key, and the user's provider refuses the judge call",
    does:
      "No `RFE_JUDGE_*` at all, so the small model (`mock/judge`) judges through opencode; the provider answers " +
      "the judge's calls with HTTP 401. The pane is read every 20 ms until the plugin's notice shows.",
    shows:
      "opencode turns each judge session's error into a red toast of its own, which the plugin cannot prevent; the " +
      "plugin takes it off at once with a toast of 1 ms (the notes give how many polled screens showed the raw " +
      "error: all before the notice). Under the reply, two notices: which of the user's models judges, then that " +
      "the provider refused it, what to check and that judging rests 10 minutes. No toast is left on screen; the " +
      "user's turn is not disturbed.",
    screens: ["route-refused-notice"],
  },
  T4a: {
    title: "T4a. In the TUI (80x24, judged through opencode): the notices, undo and redo",
    does:
      "The wrong bridge count is flagged and corrected, with no judge key (on this route the plugin says once " +
      "which of the user's models judges). Then `ctrl+x u`, `ctrl+x r`, `ctrl+x u` again and Enter.",
    shows:
      "The note's notice: its two lines each stand whole on one row. Which model judges is said in a notice under " +
      "the reply, before the note's; no toast showed on any polled screen, and the reply's row was whole on every " +
      "screen that showed it. Undo took the turn back (both notices with it) and left the user's own question in " +
      "the prompt box, not a notice; redo brought the turn back with an empty prompt box; Enter after the second " +
      "undo sent the question as the user's own message (the agent's request had it, not a note, as its last user " +
      "text), judged again as a new turn.",
    screens: ["notice", "after-undo", "after-redo", "after-resend"],
  },
  T4b: {
    title: "T4b. In the TUI (120x40): the notice, undo and redo",
    does: "As T4a at 120 columns, with the judge reached directly (a judge key).",
    shows: "The notice's lines stand whole at 120 columns too; undo, redo and the resent question behave as at 80x24.",
    screens: ["notice", "after-undo", "after-redo"],
  },
  ...Object.fromEntries(
    (["a", "b"] as const).map((size) => [
      `T5${size}`,
      {
        title: `T5${size}. In the TUI (${size === "a" ? "80x24" : "120x40"}): \`/ragfaith\` after a long reply, then undo`,
        does:
          "A reply of 21 statements: the judge contradicts five (✗), finds no source for four (?), accepts twelve; " +
          "a note and the correction follow; then `/ragfaith`, read back by scrolling up with PageUp, and `ctrl+x u`.",
        shows:
          "The reply that drew the note comes first, its ✗ statements, then its ?, then one line for the twelve that " +
          "hold up; the correction after it; then the totals (`22 statements judged, 1 note sent`). No row is wider " +
          "than 72 columns, so the terminal broke none. Undo removed the report and left the prompt box empty.",
        screens: ["report-top", "report-end", "after-report-undo"],
      },
    ]),
  ),
  ...Object.fromEntries(
    (["a", "b"] as const).map((size) => [
      `T7${size}`,
      {
        title: `T7${size}. In the TUI (${size === "a" ? "80x24" : "120x40"}): no judge at all`,
        does:
          "No judge key, and the user's opencode config has one model, the agent's (also its `small_model`), so the " +
          "route has nothing to judge with. The wrong bridge count; the pane read every 20 ms; then `/ragfaith`.",
        shows:
          "No judge request, no toast; the reply's row whole on every screen. Under it, a notice in two rows: " +
          'nothing is judged, the agent\'s model is the only one, add `"small_model"` to opencode.json or a judge ' +
          "key. The report says the reply was not judged as there was no judge to ask, and under `Judge: none.` " +
          'what to set: `"small_model": "provider/model"`, or `RFE_JUDGE_API_KEY` with `RFE_JUDGE_BASE_URL` and ' +
          "`RFE_JUDGE_MAIN_MODEL`.",
        screens: ["no-judge-notice", "no-judge-report"],
      },
    ]),
  ),
  ...Object.fromEntries(
    (["a", "b"] as const).map((size) => [
      `T8${size}`,
      {
        title: `T8${size}. In the TUI (${size === "a" ? "80x24" : "120x40"}): \`/undo\` on a slowed opencode, in a turn that edited a file`,
        does:
          "The project is a git repository (opencode restores edited files on undo only there). The agent reads " +
          "`facts.txt` and `notes.md`, edits `notes.md` (`# Draft` to `# Checked`), then gives the wrong bridge " +
          "count; note and correction follow; then `/ragfaith`. Each `/undo` is typed while opencode (TUI and server, " +
          "one process) is slowed as a CPU limiter does: SIGSTOP for 75 ms, SIGCONT for 25 ms, over and over. The " +
          "screen is read once it has held the expected state unchanged for 4 s slowed, and again for 2 s at full " +
          `speed.${size === "b" ? " Then the same turn and the same slowed `/undo` without the plugin." : ""}`,
        shows:
          "The first `/undo` took the report back and the prompt box the TUI had filled with it was empty, and stayed " +
          "so; `notes.md` was untouched. The second took the turn back: the prompt box held the user's question (not " +
          "the note's notice), the revert banner listed `notes.md +1 -1`, and the file was `# Draft` again." +
          `${size === "b" ? " Without the plugin the prompt box and the file were the same." : ""}`,
        screens: ["slow-report", "slow-undo-report", "slow-undo-turn"],
      },
    ]),
  ),
  ...Object.fromEntries(
    (["a", "b"] as const).map((size) => [
      `T6${size}`,
      {
        title: `T6${size}. In the TUI (${size === "a" ? "80x24" : "120x40"}): several wrong statements, and \`/ragfaith wrong\``,
        does:
          "A reply of three statements the judge contradicts (a wrong capital first); the note and the correction; " +
          `then \`/ragfaith wrong\`, with \`RFE_CACHE_DIR\` set.${size === "b" ? " Then opencode is started again on the same project and cache, and asked the same." : ""}`,
        shows:
          "The notice names the first statement's wrong part and the source's words for it (\"…is Fredville.\" … which " +
          'says "Marxburg") and counts the other two, in two rows. `/ragfaith wrong` marks the flags of the last note ' +
          `and says they are not flagged again in this project.${size === "b" ? " After the restart the same reply drew no notice and no correction turn." : ""}`,
        screens: ["several-notice", "ragfaith-wrong"],
      },
    ]),
  ),
  T9: {
    title: "T9. In the TUI (80x24): notes turned off",
    does: "`RFE_NUDGE_DEPTH=0`; the agent reads `facts.txt` and gives the wrong bridge count; the pane read every 20 ms.",
    shows:
      "The reply whole on every screen and no toast. Under it, the same notice a note would carry, naming the wrong " +
      'part and the file\'s words ("3 bridges"), ending "Notes are off, so the agent is not asked." No correction turn.',
    screens: ["notes-off-notice"],
  },
}

/** The TUI scenarios: what each did, its result, and the screens as captured (trailing blank rows dropped). */
function renderTui(records: readonly ScenarioRecord[], push: (...lines: string[]) => void) {
  push(
    "## In the terminal UI",
    "",
    "`test/live/tui.test.ts` starts the real opencode TUI in a private tmux server, types into it with `send-keys` " +
      "and reads the pane with `capture-pane`; every assertion is made on the captured text. The screens below are " +
      "those captures.",
    "",
  )
  for (const r of records) {
    const key = r.name.split(" ")[0] ?? ""
    const about = TUI_ABOUT[key]
    push(`### ${about?.title ?? r.name} (${r.ok ? "pass" : "**FAIL**"}, ${r.seconds.toFixed(1)} s)`, "")
    if (about?.does) push(about.does, "")
    if (r.ok) push(about?.shows ?? "", "")
    else push("```", r.error ?? "", "```", "")
    for (const label of about?.screens ?? []) {
      const screen = r.screens?.find((s) => s.label === label)
      if (!screen) continue
      // runs of empty rows (the space between the transcript and the prompt box) shrink to one marked row
      const text = screen.text.replace(/\s+$/, "").replace(/(?:\n[ \t]*){4,}\n/g, "\n\n   ⋮ (empty rows)\n\n")
      push(`\`${label}\`:`, "", "```", text, "```", "")
    }
    if (r.notes.length) push("```", ...r.notes, "```", "")
  }
}

/** Where the TUI tests keep their screens, one folder per scenario. */
const SCREENS = join(REPO_DIR, "docs/screens")

const sh = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: "utf8", cwd: REPO_DIR }).stdout.trim()

const argValue = (flag: string) => {
  const i = process.argv.indexOf(flag)
  return i >= 0 ? process.argv[i + 1] : undefined
}

const main = () => {
  const out = argValue("--out") ?? join(REPO_DIR, "docs/verification.md")
  const from = argValue("--from")
  let records: ScenarioRecord[]
  let tuiRecords: ScenarioRecord[] = []
  let summary = ""
  let suiteSeconds = 0
  if (from) {
    records = JSON.parse(readFileSync(from, "utf8"))
    const tuiFrom = argValue("--tui")
    if (tuiFrom) tuiRecords = JSON.parse(readFileSync(tuiFrom, "utf8"))
    suiteSeconds = records.reduce((sum, r) => sum + r.seconds, 0)
  } else {
    const dir = mkdtempSync(join(tmpdir(), "ragfaith-report-"))
    const file = join(dir, "records.json")
    const tuiFile = join(dir, "tui.json")
    const t0 = Date.now()
    // the screens every TUI test keeps, written afresh
    rmSync(SCREENS, { recursive: true, force: true })
    const res = spawnSync(process.execPath, ["test", "test/live/live.test.ts", "test/live/tui.test.ts"], {
      cwd: REPO_DIR,
      encoding: "utf8",
      env: {
        ...process.env,
        RFE_LIVE_REPORT: file,
        RFE_TUI_REPORT: tuiFile,
        RFE_TUI_CAPTURES: SCREENS,
        RFE_SKIP_LIVE: "",
      },
      maxBuffer: 64 * 1024 * 1024,
    })
    suiteSeconds = (Date.now() - t0) / 1000
    process.stderr.write(res.stderr)
    summary = `${res.stderr}\n${res.stdout}`
      .split("\n")
      .filter((l) => /^\s*\d+ (pass|fail)$/.test(l))
      .map((l) => l.trim())
      .join(", ")
    records = JSON.parse(readFileSync(file, "utf8"))
    if (existsSync(tuiFile)) tuiRecords = JSON.parse(readFileSync(tuiFile, "utf8"))
    rmSync(dir, { recursive: true, force: true })
  }

  const commit = sh("git", ["rev-parse", "--short", "HEAD"]) || "(no commit)"
  const dirty = sh("git", ["status", "--porcelain", "--", "src"]) ? " with uncommitted changes in src/" : ""
  const pkg = JSON.parse(readFileSync(join(REPO_DIR, "package.json"), "utf8")) as { version: string }
  const opencode = sh(OPENCODE_BIN, ["--version"])
  const date = new Date().toISOString().slice(0, 10)

  const lines: string[] = []
  const push = (...xs: string[]) => lines.push(...xs)
  push(
    `# Live verification on opencode ${opencode}`,
    "",
    `These results come from \`bun test/live/report.ts\`, run on ${date} against opencode ${opencode} ` +
      `(\`opencode-ai\` ${opencode}, linux-x64, its bundled Bun) with \`@resonanceee/opencode-ragfaith\` ${pkg.version} ` +
      `at commit ${commit}${dirty}. This file is generated; do not edit it by hand.`,
    "",
    "Each scenario starts its own real `opencode serve` (scenario 10: `opencode run`) in a scratch folder with its own " +
      "`HOME` and XDG folders, loads the plugin (copied from `src/index.ts` into `.opencode/plugins/`, except in the " +
      "loading tests), and drives it over HTTP: `POST /session`, `POST /session/{id}/message`, the `GET /event` stream, " +
      "`GET /session/{id}/message`. The model is a scripted OpenAI-compatible endpoint on 127.0.0.1, and so is the " +
      "judge, so the runs are deterministic and spend nothing. Everything else is the real opencode: plugin loading, " +
      "the session loop, tool execution (read, webfetch, bash, task), permissions, persistence, the event bus and " +
      "`client.session.prompt` / `client.tui.showToast` as the plugin calls them.",
    "",
    "Request kinds in the digests:",
    "",
    "- `agent`: the agent loop (`mock/scripted`, streamed SSE). `note=last` means the request's last user message is a " +
      "ragfaith note; `notes=N` counts notes earlier in the conversation.",
    "- `title`: opencode's title request (`mock/title`, the small model).",
    "- `judge`: the plugin's judge call, with the claim it carried and what the scripted judge answered.",
    "- `page`: a webfetch of a page served by the endpoint.",
    "",
    "## Commands",
    "",
    "```sh",
    "npm run test:e2e                  # these live tests, the TUI tests and the Node-host tests",
    "bun test test/live/live.test.ts   # the live suite alone (RFE_SKIP_LIVE=1 skips it; RFE_LIVE_KEEP=1 keeps scratch dirs)",
    "bun test/live/demo.ts             # one live session with a readable transcript (npm run demo)",
    "bun test/live/report.ts           # runs the live suite and regenerates this file",
    "```",
    "",
    "## No network, no installs",
    "",
    "- opencode runs an `npm install @opencode-ai/plugin` in every config folder (`$XDG_CONFIG_HOME/opencode`, the " +
      "project's `.opencode/`) unless `node_modules` exists there and `package-lock.json`'s root package lists every " +
      "dependency of `package.json` plus `@opencode-ai/plugin` (`Npm.install` in the 1.18.33 bundle). The harness " +
      "writes both files and symlinks `@opencode-ai/plugin` from this checkout's `node_modules`; scenario 1 and the " +
      "loading tests assert that opencode left those folders untouched.",
    "- An npm plugin spec is resolved by `Npm.add` in `$XDG_CACHE_HOME/opencode/packages/<spec>/`, where a spec " +
      "without a version becomes `<name>@latest`; if `node_modules/<name>` exists there, nothing is installed. The " +
      "harness `npm pack`s this checkout and installs the tarball there with `npm install --offline`.",
    "- The bash scenarios find a fake `npm` first on `PATH`. The only sockets are on 127.0.0.1.",
    "- What the seeding saves was measured once, by hand, on 2026-11-30 with the npm registry reachable: a run " +
      "without it took 39 s instead of about 9 s, and opencode installed 29 packages into each config folder. " +
      "Without any registry, opencode is reported to retry for about a minute; that was not re-measured.",
    "",
    "## Results",
    "",
    `Suite: ${summary || "(rendered from saved records)"}; ${suiteSeconds.toFixed(0)} s in all.`,
    "",
    "| scenario | result | seconds (opencode start) |",
    "|---|---|---|",
    ...[...records, ...tuiRecords].map(
      (r) =>
        `| ${r.name} | ${r.ok ? "pass" : "**FAIL**"} | ${r.seconds.toFixed(1)}${r.startupSeconds ? ` (${r.startupSeconds.toFixed(1)})` : ""} |`,
    ),
    "",
  )

  const loadRecords = records.filter((r) => r.name.startsWith("load "))
  for (const r of records.filter((x) => !x.name.startsWith("load "))) {
    const key = r.name.split(" ")[0] ?? ""
    const about = ABOUT[key]
    push(`## ${about?.title ?? r.name}`, "")
    if (about?.does) push(about.does, "")
    push("What the endpoint received:", "", "```", ...r.digest, "```", "")
    if (r.notes.length) push("Recorded during the run:", "", "```", ...r.notes.flatMap((n) => n.split("\n")), "```", "")
    if (r.ok) push(about?.shows ?? "", "")
    else
      push("**This scenario failed.** The assertion and the opencode log lines:", "", "```", r.error ?? "", "```", "")
  }
  if (loadRecords.length) {
    push(
      "## Three ways to load the plugin",
      "",
      "Each loading test runs scenario 1. A judge request proves the plugin loaded; its `model` proves where the " +
        "configuration came from.",
      "",
    )
    for (const r of loadRecords) {
      push(`### ${r.name}${r.ok ? "" : " (**FAILED**)"}`, "", LOAD_ABOUT[r.name] ?? "", "")
      push("```", ...r.digest, ...r.notes, "```", "")
      if (!r.ok) push("```", r.error ?? "", "```", "")
    }
  }
  if (tuiRecords.length) renderTui(tuiRecords, push)
  push(
    "## What these runs do not show",
    "",
    "- The agent and the judge are scripted. The runs verify the plugin against opencode's runtime (hooks, events, " +
      "injection, loading), not how a real model reacts to a note or how accurate a real judge is. Whether a real " +
      "agent fixes its claim, rather than the scripted one that always does, is not tested.",
    "- A real judge provider was not called: no https, no provider authentication, no real token counts or latency. " +
      "`bun test/live/demo.ts` can route the judge to a real endpoint (`RFE_JUDGE_BASE_URL`, `RFE_JUDGE_API_KEY`, " +
      "`RFE_JUDGE_MAIN_MODEL`); that path was exercised only against a second loopback server.",
    "- The TUI was run in tmux at 80x24, 100x40 and 120x40, with the scripted models: other sizes, themes and " +
      "terminals, the timeline and export views, and undo from the timeline were not asserted by these tests.",
    "- `opencode run` was checked for the documented behaviour (no injection, findings on stderr and as a log line, " +
      "exit 0) with judges answering in milliseconds and in 3 s; a judge slower than `RFE_FLUSH_TIMEOUT_MS` (20 s) " +
      "was not run live. The findings did not reliably reach the opencode log *file* in run mode (see scenario 10).",
    "- The npm install path used a tarball from `npm pack` placed in opencode's package cache; opencode's own " +
      "download of the package from a registry was not exercised (these runs never contact a registry).",
    "- Only linux-x64 and opencode 1.18.33 were run. Secret redaction was checked for the five kinds of secret " +
      "listed in scenario 6; the coverage of every family and shape is measured on generated corpora, not live " +
      "(docs/redaction.md).",
    "",
  )
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, lines.join("\n"))
  console.log(`wrote ${out} (${records.length} scenarios, ${records.filter((r) => !r.ok).length} failed)`)
  if (records.some((r) => !r.ok)) process.exitCode = 1
}

main()
