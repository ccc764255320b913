// Shell commands as the records read them: their simple commands, which run tests or builds, whose exit code the record holds, and test summaries.
import { wordPattern } from "../base/words.ts"

/** One simple command of a command line: its words, where its output goes, and the operator after it. */
export interface SimpleCommand {
  words: string[]
  /** Targets of `>`, `>>` and `&>`: files the command writes. */
  writes: string[]
  /** `|` joins it to the next command of a pipeline; `&&`, `||`, `;`, `&` and a line end start a new one. */
  next: "|" | "&&" | "||" | ";" | "&" | undefined
}

/** Words that stand before the program they run: `timeout 60 pytest`, `env CI=1 npm test`, `FOO=1 make test`. */
const PREFIX_WORD_RE =
  /^(?:[A-Za-z_]\w*=.*|timeout|time|env|sudo|nice|xvfb-run|command|exec|nohup|stdbuf|-\S+|\d+[smh]?)$/

/** Programs that only look: they neither run project code nor write files (unless redirected). */
const LOOK_ONLY_PROGRAMS = new Set([
  ...["ls", "cat", "head", "tail", "grep", "egrep", "fgrep", "rg", "ag", "find", "wc", "nl", "less", "more", "tree"],
  ...["stat", "file", "which", "type", "whereis", "pwd", "cd", "echo", "printf", "true", "false", "diff", "cmp"],
  ...["sort", "uniq", "cut", "tr", "column", "basename", "dirname", "realpath", "readlink", "date", "whoami", "env"],
  ...["printenv", "uname", "hostname", "id", "du", "df", "md5sum", "sha256sum", "xxd", "od", "hexdump", "jq", "clear"],
])

/** git subcommands that change no file of the work tree. */
const GIT_LOOK_ONLY_COMMANDS = [
  ...["status", "diff", "log", "show", "blame", "branch", "rev-parse"],
  ...["ls-files", "grep", "remote", "config", "describe", "shortlog", "add"],
] as const

const GIT_LOOK_ONLY_RE = new RegExp(`^${wordPattern(GIT_LOOK_ONLY_COMMANDS)}$`)

/** Test runners, read from a simple command's program and its first arguments. */
const TEST_RUNNER_RE =
  /^(?:(?:npm|pnpm|yarn|bun)(?: run)? test(?:[:\w-]*)|bun test|(?:npx|bunx|pnpm exec|yarn) (?:jest|vitest|mocha|ava|tap|playwright test|cypress run)|(?:jest|vitest|mocha|ava|pytest|py\.test|tox|nox|rspec|phpunit|ctest|nextest)|python[\d.]* -m (?:pytest|unittest|tox|nox)|go test|cargo (?:test|nextest)|make (?:test|check)\S*|mvn\S* (?:\S+ )*?(?:test|verify)|\S*gradlew? (?:\S+ )*?(?:test|check)|dotnet test|deno test|swift test|mix test|bundle exec (?:rspec|rake test)|rake test|(?:\S*\/)?runtests(?:\.py)?|(?:\S*\/)?run_tests(?:\.py|\.sh)?)\b/

/** Build and type-check commands. */
const BUILD_RUNNER_RE =
  /^(?:(?:npm|pnpm|yarn|bun)(?: run)? build\S*|(?:npx |bunx )?(?:tsc|vite build|next build|nuxt build|astro build|webpack)|bun build|cargo (?:build|check)|go (?:build|vet)|make(?: (?:all|build))?$|mvn\S* (?:\S+ )*?(?:package|compile|install)|\S*gradlew? (?:\S+ )*?(?:build|assemble)|dotnet build|python[\d.]* -m (?:build|compileall)|python[\d.]* setup\.py (?:build|build_ext))\b/

/** How much of a command line is read: a heredoc may carry a whole file. */
const COMMAND_SCAN_CHARS = 64_000

/** Where the line after `at` that is `delimiter` alone ends: a heredoc's body is skipped to there. */
function heredocEnd(command: string, at: number, delimiter: string): number {
  const end = command.slice(at + 1).search(new RegExp(`^\\s*${delimiter.replace(/\W/g, "\\$&")}\\s*$`, "m"))
  if (end < 0) return command.length
  const lineEnd = command.indexOf("\n", at + 1 + end)
  return lineEnd < 0 ? command.length : lineEnd
}

/**
 * A backslash before a letter, digit, dot, dash or underscore separates a Windows path (`C:\repo\src\a.ts` in cmd
 * or PowerShell); a POSIX shell would drop it, but no one escapes such a character there on purpose.
 */
const PATH_BACKSLASH_RE = /^\\[\w.-]/

/** The end of a word part that starts at `at`: a quoted string, `$(...)`, an escape, or one character. */
function wordPartEnd(command: string, at: number): number {
  const char = command[at]
  if (char === "\\") return PATH_BACKSLASH_RE.test(command.slice(at, at + 2)) ? at : at + 1
  if (char === "'" || char === '"') {
    const end = command.indexOf(char, at + 1)
    return end < 0 ? command.length : end
  }
  if (char !== "$" || command[at + 1] !== "(") return at
  let depth = 0
  for (let end = at + 1; end < command.length; end++) {
    if (command[end] === "(") depth++
    else if (command[end] === ")" && --depth === 0) return end
  }
  return command.length
}

/** The text a word part adds: quotes and escapes removed, `$(...)` kept whole. */
const wordPartText = (command: string, at: number, end: number) => {
  const char = command[at]
  if (char === "'" || char === '"') return command.slice(at + 1, end)
  if (char === "\\" && end > at) return command[end] ?? ""
  return command.slice(at, end + 1)
}

/**
 * The simple commands of a command line. Quotes, escapes and `$(...)` stay inside a word; heredoc bodies
 * are skipped; `#` comments dropped; `>`, `>>`, `&>` and `2>` make the next word a file written, `2>&1` none.
 */
export function splitCommand(line: string): SimpleCommand[] {
  const command = line.slice(0, COMMAND_SCAN_CHARS)
  const commands: SimpleCommand[] = []
  let current: SimpleCommand = { words: [], writes: [], next: undefined }
  let word: string | undefined
  let redirect = false
  const heredocs: string[] = []
  const endWord = () => {
    if (word === undefined) return
    ;(redirect ? current.writes : current.words).push(word)
    word = undefined
    redirect = false
  }
  const endCommand = (next: SimpleCommand["next"]) => {
    endWord()
    if (current.words.length || current.writes.length) commands.push({ ...current, next })
    current = { words: [], writes: [], next: undefined }
  }
  for (let at = 0; at < command.length; at++) {
    const char = command[at] as string
    const two = command.slice(at, at + 2)
    const heredoc = two === "<<" ? /^<<-?\s*(['"]?)([\w.-]+)\1/.exec(command.slice(at, at + 200)) : null
    if (char === "\n") {
      endCommand(";")
      for (const delimiter of heredocs.splice(0)) at = heredocEnd(command, at, delimiter)
    } else if (/\s/.test(char)) endWord()
    else if (char === "#" && word === undefined) {
      const end = command.indexOf("\n", at)
      at = (end < 0 ? command.length : end) - 1
    } else if (heredoc) {
      endWord()
      heredocs.push(heredoc[2] as string)
      at += heredoc[0].length - 1
    } else if (two === "&&" || two === "||") {
      endCommand(two)
      at++
    } else if (char === ";" || char === "|" || (char === "&" && command[at + 1] !== ">" && command[at - 1] !== ">")) {
      endCommand(char === "|" ? "|" : char === "&" ? "&" : ";")
      if (two === "|&") at++
    } else if (char === ">" || two === "&>") {
      const operator = /^&?>>?(?:&\d)?/.exec(command.slice(at, at + 4))?.[0] ?? ">"
      // A file descriptor before the operator ("2>") is no word of the command.
      if (word !== undefined && /^\d$/.test(word)) word = undefined
      else endWord()
      at += operator.length - 1
      redirect = !/&\d$/.test(operator)
    } else if (char === "<") endWord()
    else {
      const end = wordPartEnd(command, at)
      word = (word ?? "") + wordPartText(command, at, end)
      at = end
    }
  }
  endCommand(undefined)
  return commands
}

/** The words from the program on: `timeout 60 env CI=1 npm test` is `npm test`. */
export function programWords(simple: SimpleCommand): string[] {
  const words = simple.words
  let at = 0
  while (at < words.length - 1 && PREFIX_WORD_RE.test(words[at] as string)) at++
  return words.slice(at)
}

const programLine = (simple: SimpleCommand) => programWords(simple).join(" ")

/** What a simple command runs: a test suite, a build, or neither. */
export function runnerOf(simple: SimpleCommand): "tests" | "build" | undefined {
  const line = programLine(simple)
  if (TEST_RUNNER_RE.test(line)) return "tests"
  if (BUILD_RUNNER_RE.test(line)) return "build"
  return undefined
}

/** Whether a simple command only looks, running no project code and writing no file. */
export function looksOnly(simple: SimpleCommand): boolean {
  if (simple.writes.some((target) => target !== "/dev/null")) return false
  const [program = "", sub = "", ...rest] = programWords(simple)
  const name = program.split("/").at(-1) ?? program
  if (name === "git") return GIT_LOOK_ONLY_RE.test(sub)
  if (name === "sed" || name === "perl") return ![sub, ...rest].some((word) => /^-\w*i/.test(word))
  if (name === "find") return ![sub, ...rest].some((word) => /^-(?:exec|execdir|delete|ok|fprint)/.test(word))
  return LOOK_ONLY_PROGRAMS.has(name)
}

/**
 * The outcome the exit code of a whole command line gives the simple command at `index`: it is that command's
 * own only when nothing after it could set it. A pipeline exits with its last command unless `pipefail` is on
 * (`pytest | tail` exits with tail's 0); after `&&` a 0 means every command passed, a failure could be any.
 */
export function ownOutcome(
  commands: readonly SimpleCommand[],
  index: number,
  exit: number | undefined,
): "passed" | "failed" | undefined {
  if (exit === undefined) return undefined
  const pipefail = commands.slice(0, index).some((c) => /\bpipefail\b/.test(c.words.join(" ")))
  // The command may not have run at all after `||`, or may have run in the background.
  if (commands[index - 1]?.next === "||" || commands[index]?.next === "&") return undefined
  let end = index
  while (commands[end]?.next === "|") end++
  if (end > index && !pipefail) return undefined
  if (end === commands.length - 1) return exit === 0 ? "passed" : "failed"
  // `pytest && echo done`: a 0 means every command after `&&` ran, so the runner passed.
  const chained = commands.slice(end, -1).every((c) => c.next === "&&" || c.next === "|")
  return chained && commands[end]?.next === "&&" && exit === 0 ? "passed" : undefined
}

/** Summary lines of test runners: [a line's pattern, whether it reports a pass]. Checked line by line. */
const TEST_SUMMARY_LINES: ReadonlyArray<readonly [RegExp, boolean]> = [
  // pytest: "===== 3 failed, 12 passed in 0.52s =====", "12 passed in 0.1s", "no tests ran"
  [/^=*\s*(?:\d+ (?:passed|skipped|deselected|xfailed|xpassed|warnings?)(?:, )?)+ in [\d.]+s/, true],
  [/^=*\s*(?:\d+ \w+, )*\d+ (?:failed|errors?)\b.* in [\d.]+s/, false],
  // Jest: "Tests:       1 failed, 5 passed, 6 total"; Vitest: "Tests  5 passed (5)", "Tests  1 failed | 4 passed (5)"
  [/^Tests:?\s+(?:\d+ (?:passed|skipped|todo)[, |]*)+(?:\d+ total|\(\d+\))/, true],
  [/^Tests:?\s+(?:\d+ \w+[, |]*)*\d+ failed/, false],
  // Mocha: "  12 passing (30ms)", "  1 failing"; bun test: " 12 pass", " 0 fail"
  [/^\d+ failing\b/, false],
  [/^[1-9]\d* fail$/, false],
  [/^[1-9]\d* pass$/, true],
  [/^\d+ passing \(/, true],
  // go test: "ok  	example.com/pkg	0.01s", "FAIL	example.com/pkg	0.02s", "--- FAIL: TestX"
  [/^ok\s+\S+\s+(?:[\d.]+s|\(cached\))/, true],
  [/^(?:FAIL\s+\S+\s+[\d.]+s|--- FAIL: )/, false],
  // cargo test: "test result: ok. 5 passed; 0 failed", "test result: FAILED."
  [/^test result: ok\./, true],
  [/^test result: FAILED\./, false],
  // Maven Surefire and Gradle
  [/^\[INFO\] Tests run: \d+, Failures: 0, Errors: 0\b/, true],
  [
    /^\[(?:ERROR|WARNING)\] Tests run: \d+, Failures: [1-9]|^\[(?:ERROR|WARNING)\] Tests run: \d+, Failures: \d+, Errors: [1-9]/,
    false,
  ],
  [/^BUILD FAIL(?:URE|ED)\b/, false],
  // dotnet test: "Passed!  - Failed:     0, Passed:    12", "Failed!  - Failed:     1"
  [/^Passed!\s+- Failed:\s+0\b/, true],
  [/^Failed!\s+- Failed:\s+\d+/, false],
  // SymPy's bin/test: "==== tests finished: 45 passed, in 0.52 seconds ====", "… 40 passed, 2 failed, in …"
  [
    /^=+ tests finished: \d+ passed(?:, \d+ (?:skipped|expected to fail(?:, but passed)?))*, in [\d.]+ seconds =+$/,
    true,
  ],
  [/^=+ tests finished: .*\b\d+ (?:failed|exceptions?)\b/, false],
  // tox and nox
  [/^(?:\s*congratulations :\)|nox > Session \S+ was successful)/, true],
  [/^(?:ERROR:\s+\S+: commands failed|nox > Session \S+ failed)/, false],
  // any runner: "12 passed, 0 failed" alone on a line, perhaps after one word and a colon
  [/^(?:\w+:\s*)?\d+ passed, 0 failed(?:, \d+ skipped)?$/, true],
  [/^(?:\w+:\s*)?\d+ passed, [1-9]\d* failed(?:, \d+ skipped)?$/, false],
]

/** unittest and Django end with "Ran N tests in Xs", then "OK", "OK (skipped=2)" or "FAILED (failures=1)". */
const UNITTEST_RAN_RE = /^Ran \d+ tests? in [\d.]+s$/

const UNITTEST_RESULT_RE = /^(?:(OK)(?: \([^)]*\))?|FAILED \((?:failures|errors)=\d+.*\))$/

/**
 * What the test summary lines of a command's output say: failed if any says so, passed if one passes. An "OK"
 * counts only after unittest's "Ran N tests" line: many programs print OK.
 */
export function testSummary(output: string): "passed" | "failed" | undefined {
  let found: "passed" | undefined
  let ranUnittest = false
  for (const raw of output.split("\n")) {
    const line = raw.trim()
    if (line.length < 2 || line.length > 200) continue
    if (UNITTEST_RAN_RE.test(line)) {
      ranUnittest = true
      continue
    }
    const unittest = ranUnittest ? UNITTEST_RESULT_RE.exec(line) : null
    if (unittest) {
      if (!unittest[1]) return "failed"
      found = "passed"
      continue
    }
    for (const [pattern, passed] of TEST_SUMMARY_LINES) {
      if (!pattern.test(line)) continue
      if (!passed) return "failed"
      found = "passed"
    }
  }
  return found
}

/** The file-like words of a command line: arguments and redirect targets with a path separator or an extension. */
export function namedFiles(commands: readonly SimpleCommand[]): string[] {
  return commands.flatMap((simple) =>
    [...simple.words.slice(1), ...simple.writes].filter(
      (word) => !word.startsWith("-") && !/\s/.test(word) && /(?:[\\/]|\.\w{1,8}$)/.test(word),
    ),
  )
}

/**
 * Lines that report one test's result, with its name and outcome: unittest and Django in verbose mode and
 * their failure headers, pytest -v and its short summary, go test -v, cargo test, Jest/Vitest/Mocha marks,
 * bun test. What a claim about some tests ("the merge tests pass") is decided by.
 */
const TEST_RESULT_LINES: ReadonlyArray<readonly [RegExp, (match: RegExpExecArray) => boolean]> = [
  [
    /^(test\S*\s+\([^)]*\))(?:\s+\.\.\.)?.*?\s(ok|FAIL|ERROR|skipped\b.*|expected failure)$/,
    (m) => m[2] !== "FAIL" && m[2] !== "ERROR",
  ],
  [/^(FAIL|ERROR): (test\S*(?:\s+\([^)]*\))?)/, () => false],
  [/^(\S+::\S+)\s+(PASSED|FAILED|ERROR|XPASS|XFAIL|SKIPPED)\b/, (m) => m[2] !== "FAILED" && m[2] !== "ERROR"],
  [/^(FAILED|ERROR) (\S+::\S+)/, () => false],
  [/^--- (PASS|FAIL|SKIP): (\S+)/, (m) => m[1] !== "FAIL"],
  [/^test (\S+) \.\.\. (ok|FAILED|ignored)$/, (m) => m[2] !== "FAILED"],
  [/^(PASS|FAIL) (\S+\.(?:[jt]sx?|mjs|cjs))\b/, (m) => m[1] === "PASS"],
  [/^(✓|✔|√|✗|✕|×|✘)\s+(.+)$/u, (m) => "✓✔√".includes(m[1] as string)],
  [/^\((pass|fail)\) (.+)$/, (m) => m[1] === "pass"],
]

/** How many result lines a run keeps, and how much of each: enough to find a group of tests by name. */
const RESULT_LINES = 300

const RESULT_LINE_CHARS = 160

/** One test's reported result: its line, lowercased and clipped, and whether it passed. */
interface TestResult {
  line: string
  passed: boolean
}

/** The per-test result lines of a command's output, failures kept first when there are too many. */
export function testResults(output: string): TestResult[] {
  const found: TestResult[] = []
  for (const raw of output.split("\n")) {
    const line = raw.trim()
    if (line.length < 6 || line.length > 400) continue
    for (const [pattern, passed] of TEST_RESULT_LINES) {
      const match = pattern.exec(line)
      if (!match) continue
      found.push({ line: line.slice(0, RESULT_LINE_CHARS).toLowerCase(), passed: passed(match) })
      break
    }
  }
  if (found.length <= RESULT_LINES) return found
  return [...found.filter((r) => !r.passed), ...found.filter((r) => r.passed)].slice(0, RESULT_LINES)
}

/** Programs that write every file they name: `touch x`, `tee x`, `sed -i … x`, `mv a b` (both ends change). */
const WRITING_PROGRAM_RE = /^(?:touch|mv|tee|truncate|patch)$|^(?:sed|perl)$/

/** Programs that write only their last operand, the destination: `cp a b`, `install a b`, `ln -s a b`. */
const COPYING_PROGRAM_RE = /^(?:cp|install|ln|rsync)$/

/** The files a simple command writes: its redirect targets, and what a writing program names. */
export function writtenFiles(simple: SimpleCommand): string[] {
  const [program = "", ...args] = programWords(simple)
  const name = program.split("/").at(-1) ?? program
  const operands = args.filter((word) => !word.startsWith("-"))
  let named: string[] = []
  if (name === "dd") named = args.filter((word) => word.startsWith("of=")).map((word) => word.slice(3))
  else if (COPYING_PROGRAM_RE.test(name)) {
    // `cp -t dir a b` names its destination first; otherwise it is the last operand.
    const target = args.findIndex((word) => word === "-t" || word === "--target-directory")
    const destination = target >= 0 ? args[target + 1] : operands.at(-1)
    named = operands.length >= 2 && destination !== undefined ? [destination] : []
  } else if (WRITING_PROGRAM_RE.test(name)) {
    const inPlace = !(name === "sed" || name === "perl") || args.some((word) => /^-\w*i/.test(word))
    named = inPlace ? operands : []
  }
  return [...simple.writes, ...named]
}

/** File programs that change only the files they name: what they did not name, they did not change. */
const NAMED_ONLY_PROGRAM_RE = /^(?:cp|mv|install|ln|touch|tee|truncate|mkdir|rmdir|rm|chmod|chown)$/

/** Whether a simple command changes no file but those it names (no glob, no recursion into a directory). */
export function writesOnlyNamed(simple: SimpleCommand): boolean {
  const [program = "", ...args] = programWords(simple)
  const name = program.split("/").at(-1) ?? program
  const inPlace = (name === "sed" || name === "perl") && args.some((word) => /^-\w*i/.test(word))
  return (
    (inPlace || NAMED_ONLY_PROGRAM_RE.test(name)) && !args.some((word) => /[*?]/.test(word) || /^-\w*[rR]/.test(word))
  )
}

/**
 * Whether a command may have shown the agent a file it does not name: a search or listing over directories
 * (`grep -r`, `rg`, `git grep`, `find`, `ls -R`, `tree`) or a glob (`cat src/*.ts`). A program that reads files
 * itself (a build, a migration, a script) shows the agent none of them.
 */
export function showsUnnamed(simple: SimpleCommand): boolean {
  const [program = "", ...args] = programWords(simple)
  const name = program.split("/").at(-1) ?? program
  if (args.some((word) => /[*?]/.test(word) && !word.startsWith("-"))) return true
  if (["rg", "ag", "ack", "find", "tree", "fd"].includes(name)) return true
  if (name === "git") return args[0] === "grep"
  if (["grep", "egrep", "fgrep"].includes(name) || name === "ls") return args.some((word) => /^-\w*[rR]/.test(word))
  return false
}
