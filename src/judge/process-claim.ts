// Reading a claim about the agent's own work: what it says was run, changed or read, and whether it only hedges.

import { wordPattern } from "../base/words.ts"
import { PATH_TOKEN_RE } from "../capture/named.ts"

const HEDGE_WORDS = [
  ...["should", "would", "could", "might", "may", "will", "shall", "can", "cannot"],
  ...["won't", "wouldn't", "if", "unless", "once", "until", "whether", "when", "make sure"],
  ...["ensure", "please", "try", "expect", "expects", "expected", "hopefully", "probably", "likely"],
  ...["let me", "let's", "i'll", "you'll", "you can", "need to", "needs to", "have to", "must"],
] as const

const GERMAN_HEDGE_WORDS = [
  ...["kann", "kannst", "können", "wird", "werden", "wenn", "falls", "sobald"],
  ...["bis", "ob", "damit", "bitte", "vermutlich", "wahrscheinlich", "muss"],
] as const

/** Stems that hedge in every form: "assumes", "assuming", "sollten", "würden". */
const HEDGE_STEMS = ["assum", "sollte", "würde", "könnte", "müsste"] as const

/**
 * Sentences that plan, instruct, suppose or hedge ("should pass", "run `npm test` to verify", "wenn die
 * Tests durchlaufen"): none of them claims what happened.
 */
const HEDGE_RE = new RegExp(
  String.raw`\b(?:${wordPattern([...HEDGE_WORDS, ...GERMAN_HEDGE_WORDS])}|${wordPattern(HEDGE_STEMS)}\w*)\b|\bto (?:verify|check|confirm|see|make sure)\b`,
  "i",
)

const NEGATIONS = [
  ...["not", "no longer", "never", "nothing", "none", "except"],
  ...["excepting", "apart from", "aside from", "other than", "save for"],
] as const

const GERMAN_NEGATIONS = ["nicht", "nie", "außer", "bis auf", "abgesehen"] as const

/**
 * A negated claim ("not all tests pass", "der Build läuft nicht durch") or one with an exception ("pass except
 * the flaky one", "bis auf einen") is left to the judge: a failing run may be just what it says.
 */
const NEGATION_RE = new RegExp(
  String.raw`\b(?:${wordPattern([...NEGATIONS, ...GERMAN_NEGATIONS])}|kein\w*)\b|n't\b`,
  "i",
)

const RUN_PARTS = [
  ...["other", "remaining", "rest of the", "new", "existing", "old", "relevant", "related", "affected", "updated"],
  ...["added", "core", "unit", "integration", "these", "those", "both", "my", "this", "that"],
] as const

const GERMAN_RUN_PARTS = [
  ...["übrigen", "anderen", "restlichen", "neuen", "bestehenden", "betroffenen"],
  ...["beiden", "diese", "diesen", "dieser", "dieses"],
] as const

/**
 * Tests named as a part of the run ("the other tests", "the new tests", "both tests", "die übrigen Tests"): a
 * failing run does not contradict them, since the failures may be elsewhere; a passing one confirms them.
 */
const PART_OF_RUN_RE = new RegExp(
  String.raw`(?<!\p{L})(?:${wordPattern([...RUN_PARTS, ...GERMAN_RUN_PARTS], { blank: String.raw`\s+` })}|\d+\s+of\s+the)\s+(?:[\p{L}\d-]+\s+){0,2}?(?:tests?|specs?|test\s+cases?)(?!\p{L})|\bthe\s+test\s+(?:pass|succeed)`,
  "iu",
)

/** "the merge tests", "all 12 parser tests", "the `merge` and `diff` tests": the words that name which tests. */
const NAMED_TESTS_RE =
  /\b(?:the|all|every|both|these|those|\d+)\s+(?:of\s+the\s+)?((?:[\w`.:-]+\s+){1,3}?)(?:tests?|specs?|test\s+cases?)\b/i

/** Words in front of "tests" that name no group of tests: counts, kinds and the run as a whole. */
const GENERIC_TEST_WORDS = new Set([
  ...["all", "the", "of", "and", "or", "unit", "integration", "e2e", "end-to-end", "full", "whole", "entire"],
  ...["relevant", "existing", "remaining", "other", "new", "old", "core", "main", "test", "regression", "smoke"],
  ...["automated", "python", "go", "rust", "js", "typescript", "jest", "pytest", "vitest", "bun", "cargo", "npm"],
])

/** The words that say which tests a claim means, or undefined when it means them all ("all 12 tests"). */
function namedTests(plain: string): string[] | undefined {
  const words = (NAMED_TESTS_RE.exec(plain)?.[1] ?? "")
    .toLowerCase()
    .split(/[\s`]+/)
    .filter((word) => word && !/^\d+$/.test(word) && !GENERIC_TEST_WORDS.has(word))
  return words.length ? words : undefined
}

/** "ran", "executed", "verified" said by the agent of itself. */
const RAN_IT_RE =
  /\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|also\s+|now\s+)?(?:ran|re-?ran|run|executed|verified|confirmed|checked)\b|\bafter\s+running\b|\b(?:now|again)\s+pass|\bpass(?:es)?\s+(?:now|again)\b|\b(?:ich|wir)\s+habe?n?\b.*\b(?:ausgeführt|laufen\s+lassen|geprüft)\b|\b(?:laufen|läuft)\s+(?:jetzt|nun|wieder)\s+durch\b/i

const FIRST_PERSON_RAN_RE =
  /\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|also\s+|then\s+)?(?:ran|re-?ran|run|executed)\b|\b(?:ich|wir)\s+habe?n?\b.*\b(?:ausgeführt|laufen\s+lassen)\b/i

/**
 * "I ran the tests", "we re-ran the unit tests", "Ich habe die Tests ausgeführt": a run of the suite claimed
 * without naming its command. What follows may say how it went ("… and they pass").
 */
const RAN_SUITE_RE =
  /\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|also\s+|then\s+|now\s+)?(?:ran|re-?ran|run|executed)\s+(?:the\s+|all\s+(?:of\s+)?(?:the\s+)?|our\s+|both\s+)?(?:(?:unit|integration|e2e|relevant|existing|full|whole|affected|new|updated|related)\s+)*(?:test\s+suite|tests?|specs?)\b|\b(?:ich|wir)\s+habe?n?\s+(?:\p{L}+\s+){0,3}?(?:die|alle)\s+(?:\p{L}+\s+)?tests?\s+(?:\p{L}+\s+)?(?:ausgeführt|laufen\s+lassen)(?!\p{L})/iu

/** How the run of the suite went, said after the run: "… and they (all) pass", "…, und sie laufen durch". */
const SUITE_OUTCOME_PATTERNS: ReadonlyArray<readonly [boolean, RegExp]> = [
  [
    true,
    /^\s*(?:,\s*)?(?:and|und)\s+(?:they|all|both|everything|each|all\s+of\s+them|sie|alle)\s+(?:all\s+|alle\s+|now\s+|jetzt\s+)?(?:pass(?:ed)?|succeed(?:ed)?|are\s+(?:all\s+)?(?:passing|green)|laufen\s+(?:\p{L}+\s+)?durch|sind\s+(?:\p{L}+\s+)?grün|bestehen|bestanden)\b\W*$/iu,
  ],
  [
    false,
    /^\s*(?:,\s*)?(?:and|und)\s+(?:they|some|one|two|three|sie|einige|zwei|drei)\s+(?:still\s+|noch\s+)?(?:fail(?:ed)?|are\s+(?:still\s+)?failing|schlagen\s+(?:\p{L}+\s+)?fehl)\b\W*$/iu,
  ],
]

/** Programs an agent runs, as a command starts; `./` for a script of the project. */
const AGENT_PROGRAMS = [
  ...["npm", "npx", "pnpm", "yarn", "bun", "bunx", "node", "deno", "python3", "python", "pip3"],
  ...["pip", "uv", "poetry", "pytest", "go", "cargo", "make", "tsc", "eslint", "prettier", "biome"],
  ...["ruff", "mypy", "black", "jest", "vitest", "mocha", "git", "docker", "mvn", "gradle", "./gradlew"],
  ...["dotnet", "bundle", "rake", "rspec", "composer", "php", "sh", "bash", "./"],
] as const

/** A command in backticks that starts with a program an agent runs. */
const BACKTICK_COMMAND_RE = new RegExp(String.raw`\`(${wordPattern(AGENT_PROGRAMS)}[^\`]{0,160})\``, "i")

const COMMAND_PASSED_RE =
  /\b(?:pass(?:es|ed)|succeed(?:s|ed)|exit(?:s|ed)?\s+(?:with\s+)?(?:code\s+|status\s+)?0\b|(?:runs?|ran|finish(?:es|ed)|complet(?:es|ed))\s+(?:cleanly|successfully|without\s+(?:errors?|warnings?|problems?|issues?))|reports?\s+no\s+(?:errors?|problems?|issues?)|is\s+(?:clean|green)|läuft\s+(?:\w+\s+)?durch|erfolgreich|fehlerfrei|ohne\s+fehler)\b/i

const COMMAND_FAILED_RE =
  /\b(?:fail(?:s|ed)|exit(?:s|ed)?\s+(?:with\s+)?(?:code\s+|status\s+)?[1-9]\d*\b|errors?\s+out|crash(?:es|ed)|schlägt\s+(?:\w+\s+)?fehl|schlug\s+(?:\w+\s+)?fehl|bricht\s+(?:\w+\s+)?ab)\b/i

/** Outcome claims about the tests or the build, English and German: [kind, passed, shapes]. */
const OUTCOME_PATTERNS: ReadonlyArray<readonly ["tests" | "build", boolean, readonly RegExp[]]> = [
  [
    "tests",
    true,
    [
      /\b(?:all|the|every|both|these|those|\d+)\s+(?:of\s+the\s+)?(?:[\w-]+\s+){0,2}?(?:tests?|specs?|test\s+cases?)\s+(?:now\s+|still\s+|all\s+)?(?:pass(?:ed)?|succeed(?:ed)?|are\s+(?:now\s+|all\s+)?(?:passing|green))(?=\s*(?:$|[.,;:!)(—–]|\s(?:again|now|locally|cleanly|successfully|without|with|on|in|after)\b))/i,
      /\b(?:the\s+)?test\s+suite\s+(?:now\s+)?(?:passes|passed|succeeds|succeeded|is\s+(?:now\s+)?green)\b/i,
      /\b(?:alle|die)\s+(?:\d+\s+)?(?:[\wäöüß-]+\s+)?tests?\s+(?:laufen|liefen|sind|waren)\s+(?:jetzt\s+|nun\s+|wieder\s+)?(?:durch|grün|erfolgreich|bestanden)\b/i,
      /\b(?:alle|die)\s+(?:\d+\s+)?tests?\s+(?:bestehen|bestanden)\b/i,
      /\bdie\s+test-?suite\s+(?:läuft|lief)\s+(?:jetzt\s+|wieder\s+)?(?:durch|grün)\b/i,
    ],
  ],
  [
    "tests",
    false,
    [
      /\b(?:\d+|one|two|three|some|several|the|all)\s+(?:[\w-]+\s+){0,2}?tests?\s+(?:still\s+|now\s+)?(?:fail(?:ed)?|are\s+(?:still\s+)?failing)\b/i,
      /\btests?\s+(?:schlagen|schlugen)\s+(?:\w+\s+)?fehl\b/i,
      /\btests?\s+(?:sind|waren)\s+(?:\w+\s+)?fehlgeschlagen\b/i,
    ],
  ],
  [
    "build",
    true,
    [
      /\bthe\s+build\s+(?:now\s+)?(?:passes|passed|succeeds|succeeded|is\s+(?:now\s+)?green|completes?\s+successfully)\b/i,
      /\b(?:it|the\s+(?:project|code|package)|everything)\s+(?:now\s+)?(?:compiles|builds)(?:\s+(?:cleanly|successfully|without\s+errors))?(?=\s*(?:$|[.,;:!]))/i,
      /\b(?:builds|compiles)\s+(?:cleanly|successfully|without\s+errors)\b/i,
      /\bder\s+build\s+(?:läuft|lief|ist|war)\s+(?:jetzt\s+|wieder\s+|nun\s+)?(?:durch|grün|erfolgreich)\b/i,
      /\b(?:kompiliert|baut)\s+(?:jetzt\s+|wieder\s+|nun\s+)?(?:fehlerfrei|sauber|erfolgreich|ohne\s+fehler)\b/i,
    ],
  ],
  [
    "build",
    false,
    [
      /\bthe\s+build\s+(?:still\s+|now\s+)?(?:fails|failed|is\s+(?:still\s+)?(?:broken|failing|red))\b/i,
      /\bder\s+build\s+(?:schlägt|schlug)\s+(?:\w+\s+)?fehl\b/i,
    ],
  ],
]

const CHANGE_VERBS = [
  ...["updated", "edited", "modified", "changed", "fixed", "refactored"],
  ...["rewrote", "patched", "adjusted", "created", "added", "wrote"],
] as const

/** A line or range cited after a path: `AGENTS.md:42`, `a.ts:10-20`, `a.ts:10:5`, `app.ts#L10-L20`. */
const CITATION_END_RE = /(?::\d+(?:[-–:]\d+)?|#L\d+(?:C\d+)?(?:-L?\d+(?:C\d+)?)?)$/

const GERMAN_CHANGE_VERBS = [
  ...["geändert", "angepasst", "aktualisiert", "bearbeitet", "überarbeitet", "erstellt"],
  ...["angelegt", "hinzugefügt", "geschrieben", "korrigiert", "repariert"],
] as const

/** The agent says it changed a file: "I updated `x`", "Updated `x` to …", "`x` was updated", "Ich habe `x` angepasst". */
const CHANGE_CLAIM_RE = new RegExp(
  `\\b(?:i|we)(?:'ve|\\s+have)?\\s+(?:also\\s+|just\\s+|now\\s+|then\\s+)?${wordPattern(CHANGE_VERBS)}\\b|^${wordPattern(CHANGE_VERBS)}\\s|\`\\s+(?:was|were|has\\s+been|have\\s+been)\\s+${wordPattern(CHANGE_VERBS)}\\b|\\b(?:ich|wir)\\s+habe?n?\\b.*(?<!\\p{L})${wordPattern(GERMAN_CHANGE_VERBS)}(?!\\p{L})|\\bwurden?\\s+(?:\\p{L}+\\s+)?${wordPattern(GERMAN_CHANGE_VERBS)}(?!\\p{L})`,
  // "u": a German verb may begin with an umlaut ("überarbeitet"), which \b does not see as a letter.
  "iu",
)

const READ_VERBS = ["read", "looked at", "inspected", "reviewed", "examined", "opened", "went through"] as const

/** The agent says it read a file. */
const READ_CLAIM_RE = new RegExp(
  `\\b(?:i|we)(?:'ve|\\s+have)?\\s+(?:also\\s+|just\\s+|first\\s+)?${wordPattern(READ_VERBS, { blank: "\\s+" })}\\b|^${wordPattern(READ_VERBS, { blank: "\\s+" })}\\s+\`[^\`\\s]*[./][^\`\\s]*\`|\\b(?:ich|wir)\\s+habe?n?\\b.*\\b(?:gelesen|angesehen|angeschaut|durchgesehen)\\b`,
  "i",
)

/** A claim about the agent's own work that its tool calls can settle. */
export type ProcessClaim =
  /** `passed` is undefined for a run claimed with no outcome ("I ran the tests."). */
  | {
      kind: "outcome"
      subject: "tests" | "build"
      passed: boolean | undefined
      ranIt: boolean
      more?: boolean
      /** Only a part of the run is claimed to pass ("the other tests"): a failure elsewhere does not contradict it. */
      part?: boolean
      /** The tests are named by what they test ("the merge tests"): only the output's lines for them decide. */
      about?: string[]
    }
  | { kind: "command"; command: string; outcome: "passed" | "failed" | "ran"; ranIt: boolean; more?: boolean }
  | FileClaim

export interface FileClaim {
  kind: "file"
  action: "change" | "read"
  paths: string[]
}

/** A second clause after a command, perhaps after its verb ("… and updated X", "… ausgeführt und …"). */
const MORE_CLAUSES_RE =
  /^[^\p{L}\d,;]*(?:\p{L}+[^\p{L}\d,;]*)?(?:[,;]|\b(?:and|then|und|dann|danach|sowie)\b)\s*\p{L}{2,}/iu

/**
 * Reads a claim about what the agent did, conservatively: plans, instructions, conditions and hedged or
 * negated sentences are not read at all, since a wrong flag costs more than a missed one.
 */

export function readProcessClaim(text: string): ProcessClaim | undefined {
  const plain = text.replace(/\s+/g, " ").trim()
  if (HEDGE_RE.test(plain) || /\?\s*$/.test(plain) || NEGATION_RE.test(plain)) return undefined
  const command = BACKTICK_COMMAND_RE.exec(plain)?.[1]
  const ranIt = FIRST_PERSON_RAN_RE.test(plain)
  const outcomeClaim = OUTCOME_PATTERNS.find(([, , patterns]) => patterns.some((re) => re.test(plain)))
  // A command is the claim's subject only where the agent says it ran it or the sentence opens with it:
  // "it tried to import `python` and failed" says nothing about a run of `python`.
  if (command && (ranIt || plain.startsWith(`\`${command}\``))) {
    const outcome = COMMAND_FAILED_RE.test(plain)
      ? "failed"
      : COMMAND_PASSED_RE.test(plain)
        ? "passed"
        : ranIt
          ? "ran"
          : undefined
    if (outcome && outcome !== "ran") return { kind: "command", command, outcome, ranIt }
    // "I ran `npm test` and all tests pass": the outcome is the claim that matters. Any other second clause
    // ("… and updated the docs") says more than the run: the records can still show the run never happened.
    if (outcome === "ran" && !outcomeClaim) {
      const after = plain.slice(plain.indexOf(command) + command.length + 1)
      return { kind: "command", command, outcome, ranIt, more: MORE_CLAUSES_RE.test(after) }
    }
  }
  if (outcomeClaim) {
    const [subject, passed] = outcomeClaim
    const part = subject === "tests" && PART_OF_RUN_RE.test(plain)
    const about = subject === "tests" && !part ? namedTests(plain) : undefined
    return {
      kind: "outcome",
      subject,
      passed,
      ranIt: ranIt || RAN_IT_RE.test(plain),
      ...(part ? { part } : {}),
      ...(about ? { about } : {}),
    }
  }
  const suite = RAN_SUITE_RE.exec(plain)
  if (suite && !command) {
    const after = plain.slice(suite.index + suite[0].length)
    const said = SUITE_OUTCOME_PATTERNS.find(([, re]) => re.test(after))
    const more = !said && MORE_CLAUSES_RE.test(after)
    return { kind: "outcome", subject: "tests", passed: said?.[0], ranIt: true, more }
  }
  const paths = [...plain.matchAll(PATH_TOKEN_RE)].map((match) =>
    (match[1] ?? match[2] ?? "").replace(CITATION_END_RE, "").replace(/[.,:;]$/, ""),
  )
  if (paths.length === 0) return undefined
  if (CHANGE_CLAIM_RE.test(plain)) return { kind: "file", action: "change", paths }
  if (READ_CLAIM_RE.test(plain)) return { kind: "file", action: "read", paths }
  return undefined
}
