import { afterAll, describe, expect, test } from "bun:test"
import { LIMITS } from "../../src/base/bounds.ts"
import { notAClaim } from "../../src/claims/checkable.ts"
import { eachProseBlock, stripInlineMarkdown } from "../../src/claims/prose.ts"
import { splitClaims } from "../../src/claims/split.ts"
import { BOUNDARY_CASES } from "../support/corpora/boundaries.ts"
import { CHATTER } from "../support/corpora/chatter.ts"
import { FACTS as FACTS_FILE } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { GATE_OFF, judgeEnv, startJudge, withJudge } from "../support/judge.ts"

/** Each paragraph and list item of a reply as one line of plain text: what the splitter starts from. */
const proseBlocks = (markdown: string) =>
  Array.from(eachProseBlock(markdown), (block) => block.lines)
    .map((lines) => stripInlineMarkdown(lines.join(" ")))
    .filter(Boolean)

/** Whether a sentence is judged at all. */
const isCheckable = (sentence: string) => notAClaim(sentence) === undefined

const claimsOf = (reply: string, max = 50) => splitClaims(reply, max).claims.map((claim) => claim.text)

describe("proseBlocks: markdown that is not prose", () => {
  test.each([
    [
      "a ``` fence",
      "The parser is strict.\n\n```ts\nconst parser = strict()\nThe code comment reads like prose.\n```\n\nThe cache is warm.",
      ["The parser is strict.", "The cache is warm."],
    ],
    [
      "a ~~~ fence, which a ``` line does not close",
      "The parser is strict.\n~~~\nThe fenced text reads like prose.\n```\nStill inside the fence here.\n~~~\nThe cache is warm.",
      ["The parser is strict.", "The cache is warm."],
    ],
    [
      "a four-backtick fence around a ``` example",
      "The parser is strict.\n\n````md\n```\nThe inner example reads like prose.\n```\n````\n\nThe cache is warm.",
      ["The parser is strict.", "The cache is warm."],
    ],
    [
      "an indented code block of several lines",
      "The parser is strict.\n\n    const a = 1\n    The second code line reads like prose.\n\treturn a\n\nThe cache is warm.",
      ["The parser is strict.", "The cache is warm."],
    ],
    ["ATX headings", "# The parser is strict\n\n## The queue is empty\n\nThe cache is warm.", ["The cache is warm."]],
    [
      "tables, header, delimiter and body rows",
      "| Option | Default value |\n| --- | :---: |\n| cache size | 512 megabytes |\n\nThe cache is warm.",
      ["The cache is warm."],
    ],
    [
      "horizontal rules in every spelling",
      "The parser is strict.\n\n---\n\n* * *\n\n___\n\nThe cache is warm.",
      ["The parser is strict.", "The cache is warm."],
    ],
    [
      "link-only lines",
      "[The parser docs are here](https://example.com/parser)\n\n<https://example.com/the/parser/docs>\n\n" +
        "https://example.com/cache/is/warm\n\n[ref]: https://example.com/ref\n\nThe cache is warm.",
      ["The cache is warm."],
    ],
    ["HTML-only lines", '<div align="center">\n\nThe cache is warm.\n\n</div>\n<br/>', ["The cache is warm."]],
    [
      "German: fences, headings, tables and rules",
      "## Der Parser ist streng\n\n```\nDer Code sieht aus wie Text.\n```\n\n| Option | Wert |\n|---|---|\n| Cache | an |\n\n---\n\nDer Cache ist warm.",
      ["Der Cache ist warm."],
    ],
  ])("%s", (_name, reply, expected) => {
    expect(claimsOf(reply)).toEqual(expected)
  })
})

describe("proseBlocks: list items, task boxes and quotes", () => {
  test.each([
    [
      "bullets of every kind, each item its own candidate even without a full stop",
      "- The parser is strict\n* The cache is warm\n+ The queue is empty\n1. The build is green\n2) The lint is clean",
      ["The parser is strict", "The cache is warm", "The queue is empty", "The build is green", "The lint is clean"],
    ],
    [
      "task boxes",
      "- [ ] The docs are outdated\n- [x] The tests were updated\n* [X] The release is tagged",
      ["The docs are outdated", "The tests were updated", "The release is tagged"],
    ],
    [
      "nested and indented items",
      "- The parser is strict\n  - The cache is warm\n    1. The queue is empty",
      ["The parser is strict", "The cache is warm", "The queue is empty"],
    ],
    [
      "quote markers, nested ones too",
      "> The parser is strict.\n> > The cache is warm.",
      ["The parser is strict. The cache is warm."],
    ],
    [
      "German list items",
      "- Der Parser ist streng\n- [x] Der Cache ist warm\n1. Die Warteschlange ist leer",
      ["Der Parser ist streng", "Der Cache ist warm", "Die Warteschlange ist leer"],
    ],
  ])("%s", (_name, reply, expected) => {
    expect(proseBlocks(reply)).toEqual(expected)
  })

  test("a paragraph's lines are joined into one block", () => {
    expect(proseBlocks("The parser is strict\nabout trailing commas.\n\nThe cache is warm.")).toEqual([
      "The parser is strict about trailing commas.",
      "The cache is warm.",
    ])
  })

  test.each([
    ["bold", "The **parser** is __strict__ here.", "The parser is strict here."],
    ["italics", "The *parser* is _strict_ here.", "The parser is strict here."],
    ["inline code", "Call `parse()` with `strict: true` here.", "Call parse() with strict: true here."],
    [
      "links and images",
      "See [the parser docs](https://x.y/p) and ![logo](l.png) here.",
      "See the parser docs and logo here.",
    ],
    ["everything at once", "- [x] The **`parse()`** call [is strict](https://x.y).", "The parse() call is strict."],
    ["German", "Die **Funktion** `parse()` ist [streng](https://x.y).", "Die Funktion parse() ist streng."],
  ])("inline markdown is normalised: %s", (_name, reply, expected) => {
    expect(claimsOf(reply)).toEqual([expected])
  })
})

describe("sentences: ICU fragments are merged back", () => {
  test.each([
    ["a title", "Dr. Smith went home.", ["Dr. Smith went home."]],
    ["approx. before a number", "It costs approx. 5 euros.", ["It costs approx. 5 euros."]],
    ["e.g. at the start", "e.g. this flag turns the cache off.", ["e.g. this flag turns the cache off."]],
    ["e.g. mid-sentence", "Pick a short name, e.g. this one works.", ["Pick a short name, e.g. this one works."]],
    ["e.g. before a capital", "Some tools, e.g. Biome, are very fast.", ["Some tools, e.g. Biome, are very fast."]],
    ["i.e. before a capital", "The default, i.e. Node 20, is used.", ["The default, i.e. Node 20, is used."]],
    [
      "real sentence ends still split",
      "Dr. Smith went home. He slept well that night.",
      ["Dr. Smith went home.", "He slept well that night."],
    ],
    [
      "a number ends a real sentence",
      "The server listens on port 8080. The client retries twice.",
      ["The server listens on port 8080.", "The client retries twice."],
    ],
  ])("English: %s", (_name, reply, expected) => {
    expect(claimsOf(reply)).toEqual(expected)
  })

  test.each([
    [
      "a date with an ordinal day",
      "Das Release erschien am 29. Juli 2025.",
      ["Das Release erschien am 29. Juli 2025."],
    ],
    ["z. B. with a space", "Die Funktion gibt z. B. null zurück.", ["Die Funktion gibt z. B. null zurück."]],
    ["z.B. without a space", "Die Funktion gibt z.B. null zurück.", ["Die Funktion gibt z.B. null zurück."]],
    ["Nr. before a number", "Siehe Nr. 5 im Abschnitt.", ["Siehe Nr. 5 im Abschnitt."]],
    ["u. a.", "Es gibt u. a. drei Varianten davon.", ["Es gibt u. a. drei Varianten davon."]],
    ["d. h.", "Das ist d. h. ein Fehler im Code.", ["Das ist d. h. ein Fehler im Code."]],
    ["bzw.", "Der Wert ist 5 bzw. 6 Sekunden lang.", ["Der Wert ist 5 bzw. 6 Sekunden lang."]],
    [
      "several in a row, real ends still split",
      "Die Funktion gibt z. B. null zurück. Das Release erschien am 29. Juli 2025. Siehe Nr. 5 im Abschnitt.",
      ["Die Funktion gibt z. B. null zurück.", "Das Release erschien am 29. Juli 2025.", "Siehe Nr. 5 im Abschnitt."],
    ],
  ])("German: %s", (_name, reply, expected) => {
    expect(claimsOf(reply)).toEqual(expected)
  })
})

describe("sentences: names, acronyms and abbreviations that end sentences", () => {
  test.each([
    ["a middle initial", "Ada K. Lovelace wrote the first program.", ["Ada K. Lovelace wrote the first program."]],
    [
      "initials in a row, spaced and dotted",
      "The book is by J. R. R. Tolkien. The film is by P.J. Jackson.",
      ["The book is by J. R. R. Tolkien.", "The film is by P.J. Jackson."],
    ],
    [
      "dotted initials open a sentence",
      "The release was in 2001. J.R.R. Tolkien wrote the book long before.",
      ["The release was in 2001.", "J.R.R. Tolkien wrote the book long before."],
    ],
    [
      "a letter after a lowercase word ends the sentence",
      "The fix is option B. The other option breaks the build.",
      ["The fix is option B.", "The other option breaks the build."],
    ],
    [
      "the pronoun I ends a sentence",
      "The reviewer and I. Then we merged it.",
      ["The reviewer and I.", "Then we merged it."],
    ],
    [
      "U.S. before a name continues",
      "The U.S. Census data is public domain.",
      ["The U.S. Census data is public domain."],
    ],
    [
      "U.S. before a sentence opener ends",
      "The servers run in the U.S. The backups are in Frankfurt.",
      ["The servers run in the U.S.", "The backups are in Frankfurt."],
    ],
    [
      "Inc. ends a sentence before a capital",
      "The package is owned by Globex Inc. It is MIT licensed.",
      ["The package is owned by Globex Inc.", "It is MIT licensed."],
    ],
    [
      "Inc. goes on before a lowercase word",
      "Globex Inc. maintains the package since 2019.",
      ["Globex Inc. maintains the package since 2019."],
    ],
    [
      "Jr. and Sr. end sentences, though they are abbreviations",
      "The patch came from Sam Vimes Jr. Sam Vimes Sr. reviewed it.",
      ["The patch came from Sam Vimes Jr.", "Sam Vimes Sr. reviewed it."],
    ],
    [
      "etc. ends a sentence",
      "It parses JSON, YAML etc. The loader reads TOML.",
      ["It parses JSON, YAML etc.", "The loader reads TOML."],
    ],
    [
      "a.m. and p.m.",
      "The job ran at 3 a.m. The report was mailed at 9 p.m. on Friday.",
      ["The job ran at 3 a.m.", "The report was mailed at 9 p.m. on Friday."],
    ],
    [
      "a short piece before a wrong split is kept, not dropped",
      "At 6 a.m. Dr. Okafor restarted the cluster.",
      ["At 6 a.m. Dr. Okafor restarted the cluster."],
    ],
    [
      "an exclamation mark inside a name",
      "The app uses Yahoo! for the login flow.",
      ["The app uses Yahoo! for the login flow."],
    ],
    [
      "abbreviations before numbers",
      "The limit is on p. 12 and in Fig. 3 of the spec. No. 7 is the default.",
      ["The limit is on p. 12 and in Fig. 3 of the spec.", "No. 7 is the default."],
    ],
    [
      "no. is a word when no number follows",
      "The answer was no. The flag stays off.",
      ["The answer was no.", "The flag stays off."],
    ],
    [
      "a spaced ellipsis inside a sentence",
      "The parser reads . . . and then it stops at the first error.",
      ["The parser reads . . . and then it stops at the first error."],
    ],
    [
      "an omission in a quotation, then a citation",
      'The spec says "a client [...] must retry [...]" (RFC 9110).',
      ['The spec says "a client [...] must retry [...]" (RFC 9110).'],
    ],
    [
      "a four-dot ellipsis ends the sentence",
      "The log stops there. . . . The next run starts clean.",
      ["The log stops there. . . .", "The next run starts clean."],
    ],
    [
      "years and port numbers end sentences",
      "The API was frozen in 2019. The server listens on port 8080. Clients retry twice.",
      ["The API was frozen in 2019.", "The server listens on port 8080.", "Clients retry twice."],
    ],
  ])("English: %s", (_name, reply, expected) => {
    expect(claimsOf(reply)).toEqual(expected)
  })

  test.each([
    [
      "Dr. med. before a name",
      "Die Praxis von Dr. med. Weber ist geschlossen.",
      ["Die Praxis von Dr. med. Weber ist geschlossen."],
    ],
    [
      "kath. before a noun",
      "Er unterrichtet an einer kath. Grundschule.",
      ["Er unterrichtet an einer kath. Grundschule."],
    ],
    [
      "Str. before a house number",
      "Der Server steht in der Hafenstr. 12, 24103 Kiel.",
      ["Der Server steht in der Hafenstr. 12, 24103 Kiel."],
    ],
    [
      "u. Ä. before a lowercase word",
      "Es braucht Tests, Doku u. Ä. für das Release.",
      ["Es braucht Tests, Doku u. Ä. für das Release."],
    ],
    [
      "u. Ä. before a sentence opener ends",
      "Es fehlen Tests, Doku u. Ä. Das Release wartet.",
      ["Es fehlen Tests, Doku u. Ä.", "Das Release wartet."],
    ],
    [
      "a century range with an en dash",
      "Die Funde stammen aus dem 1.–3. Jahrhundert nach Christus.",
      ["Die Funde stammen aus dem 1.–3. Jahrhundert nach Christus."],
    ],
    [
      "a century range with a spaced hyphen",
      "Die Mauer stammt aus dem 2. -4. Jahrhundert und ist gut erhalten.",
      ["Die Mauer stammt aus dem 2. -4. Jahrhundert und ist gut erhalten."],
    ],
    [
      "an ordinal before a noun it counts",
      "Die 2. Auflage erschien früher. Die 3. Version folgt bald.",
      ["Die 2. Auflage erschien früher.", "Die 3. Version folgt bald."],
    ],
    [
      "an ordinal date, then a number that ends a sentence",
      "Die Migration lief am 3. Oktober. Details stehen auf Seite 12. Dort steht auch das Schema.",
      ["Die Migration lief am 3. Oktober.", "Details stehen auf Seite 12.", "Dort steht auch das Schema."],
    ],
    ["S. before a page number", "Das Schema steht auf S. 14 der Doku.", ["Das Schema steht auf S. 14 der Doku."]],
    [
      "z. B. before a capitalised noun",
      "Manche Werte, z. B. Timeout und Port, sind Pflicht.",
      ["Manche Werte, z. B. Timeout und Port, sind Pflicht."],
    ],
    [
      "usw. ends a sentence",
      "Der Parser liest JSON, YAML usw. Der Loader liest nur TOML.",
      ["Der Parser liest JSON, YAML usw.", "Der Loader liest nur TOML."],
    ],
    [
      "Prof. and i. d. R.",
      "Frau Prof. Kaya prüft i. d. R. jede Änderung.",
      ["Frau Prof. Kaya prüft i. d. R. jede Änderung."],
    ],
  ])("German: %s", (_name, reply, expected) => {
    expect(claimsOf(reply)).toEqual(expected)
  })
})

describe("sentences: the boundary classes of public text, English and German", () => {
  test.each(BOUNDARY_CASES.map((entry) => [`${entry.class} (${entry.language})`, entry.text, entry.claims] as const))(
    "%s: %p",
    (_name, text, expected) => {
      expect(claimsOf(text)).toEqual([...expected])
    },
  )

  test("every class has a case in English and in German", () => {
    const covered = new Set(BOUNDARY_CASES.map((entry) => `${entry.class}|${entry.language}`))
    const classes = [...new Set(BOUNDARY_CASES.map((entry) => entry.class))]
    const oneLanguage = ["a.m./p.m. before a title", "German ordinal before a noun"]
    for (const name of classes.filter((c) => !oneLanguage.includes(c))) {
      expect([covered.has(`${name}|en`), covered.has(`${name}|de`)]).toEqual([true, true])
    }
  })
})

describe("sentences: questions never leak their first half", () => {
  test.each([
    [
      "cut at an initial",
      "Did you ask Ada K. Lovelace about it? The notes are in the wiki.",
      ["The notes are in the wiki."],
    ],
    ["cut at an acronym", "Is the U.S. Region still the default? It was changed in May.", ["It was changed in May."]],
    ["cut at Fig.", "Does the value in Fig. 3 match? The table says 12.", ["The table says 12."]],
    ["cut at Dr.", "Hat Dr. Weber das geprüft? Die Tests laufen grün.", ["Die Tests laufen grün."]],
    [
      "a statement before a question stays",
      "The limit was 5. Why does it matter? It caps the retries.",
      ["The limit was 5.", "It caps the retries."],
    ],
  ])("%s", (_name, reply, expected) => {
    expect(claimsOf(reply)).toEqual(expected)
  })
})

describe("markdown: lists and lines", () => {
  test.each([
    [
      "• bullets, one per line, without full stops",
      "• The cache is warm\n• The queue is empty\n• The build is green",
      ["The cache is warm", "The queue is empty", "The build is green"],
    ],
    [
      "numbered • bullets",
      "• 1. The cache is warm!\n• 2. The queue is empty!",
      ["The cache is warm!", "The queue is empty!"],
    ],
    [
      "• bullets on one line",
      "• The cache is warm • The queue is empty • The build is green",
      ["The cache is warm", "The queue is empty", "The build is green"],
    ],
    [
      "a numbered list on one line, no full stops",
      "1) The cache is warm 2) The queue is empty 3) The build is green",
      ["The cache is warm", "The queue is empty", "The build is green"],
    ],
    [
      "a numbered list on one line, with full stops",
      "1. The cache is warm. 2. The queue is empty. 3. The build is green.",
      ["The cache is warm.", "The queue is empty.", "The build is green."],
    ],
    [
      "a lettered list on one line",
      "a. The cache is warm b. The queue is empty c. The build is green",
      ["The cache is warm", "The queue is empty", "The build is green"],
    ],
    [
      "a. and b) items on their own lines",
      "a. The cache is warm\nb. The queue is empty\n(c) The build is green\nd) The lint is clean",
      ["The cache is warm", "The queue is empty", "The build is green", "The lint is clean"],
    ],
    [
      "a number inside an item is not the next item",
      "1. Set the retries to 2. Then restart the server.\n2. Check the logs.",
      ["Set the retries to 2.", "Then restart the server.", "Check the logs."],
    ],
    [
      "a line that starts with s. is not a lettered item",
      "Das Limit gilt global,\ns. oben im Abschnitt zum Cache.",
      ["Das Limit gilt global, s. oben im Abschnitt zum Cache."],
    ],
    [
      "a line that starts with i. d. R. is not a roman item",
      "i. d. R. reicht ein Neustart des Dienstes.",
      ["i. d. R. reicht ein Neustart des Dienstes."],
    ],
    [
      "lines without closing punctuation are claims of their own",
      "The plugin is loaded by opencode\nIt registers three hooks\nEach hook runs inside a guard",
      ["The plugin is loaded by opencode", "It registers three hooks", "Each hook runs inside a guard"],
    ],
    [
      "a hard-wrapped line goes on when the next starts lowercase",
      "The judge reads the premise buffer\nand the single claim being judged.",
      ["The judge reads the premise buffer and the single claim being judged."],
    ],
    [
      "a hard-wrapped line goes on after an article, also before a capital",
      "The new limit is documented in the\nREADME and in the changelog.",
      ["The new limit is documented in the README and in the changelog."],
    ],
    [
      "a line ending in a full stop ends, even before a lowercase start",
      "The cache is cleared on start.\nthe queue keeps its entries.",
      ["The cache is cleared on start.", "the queue keeps its entries."],
    ],
    [
      "a line ending in a full stop ends, even before inline code",
      "The pool is capped at 10 (values above 10 overflow).\n`pool_size` is validated at startup.",
      ["The pool is capped at 10 (values above 10 overflow).", "pool_size is validated at startup."],
    ],
    [
      "inline code after a full stop on the same line starts a sentence",
      "The helper lives in `src/retry.ts`. `backoff()` computes the delay.",
      ["The helper lives in src/retry.ts.", "backoff() computes the delay."],
    ],
    [
      "inline code after e.g. does not",
      "Some flags, e.g. `--watch`, restart the server.",
      ["Some flags, e.g. --watch, restart the server."],
    ],
    [
      "a colon line goes on into a code line",
      "The suite runs with:\n`npm test` in the repository root.",
      ["The suite runs with: npm test in the repository root."],
    ],
  ])("%s", (_name, reply, expected) => {
    expect(claimsOf(reply)).toEqual(expected)
  })

  test("no claim spans two lines that each end a sentence", () => {
    const lines = [
      "The cache is cleared on start.",
      "`retry()` waits up to 8 seconds!",
      "the queue keeps its entries.",
      "Der Parser prüft z. B. Kommas.",
      "bzw. die Klammern am Ende.",
      "The servers run in the U.S.",
      "Region is the default.",
    ]
    const claims = claimsOf(lines.join("\n"))
    expect(claims).toHaveLength(lines.length)
  })
})

describe("realistic replies: the exact claims", () => {
  test.each([
    [
      "an English change summary with a list and code",
      [
        "## Summary",
        "",
        "I capped the pool size in `src/pool.ts` at 10 (values above 10 overflow).",
        "`pool_size` is now validated at startup, e.g. `-1` throws a `RangeError`.",
        "",
        "Changes:",
        "- `src/pool.ts`: caps the size",
        "- `src/config.ts`: reads `POOL_SIZE` from the env",
        "- `test/pool.test.ts`: covers 0, 10 and 11",
        "",
        "All 42 tests pass. Want me to add a changelog entry?",
      ].join("\n"),
      [
        "I capped the pool size in src/pool.ts at 10 (values above 10 overflow).",
        "pool_size is now validated at startup, e.g. -1 throws a RangeError.",
        "src/pool.ts: caps the size",
        "src/config.ts: reads POOL_SIZE from the env",
        "test/pool.test.ts: covers 0, 10 and 11",
        "All 42 tests pass.",
      ],
    ],
    [
      "English steps with numbers inside the items",
      [
        "To upgrade:",
        "",
        "1. Bump `tinyorm` to 3.2.0 in `package.json`.",
        "2. Run `npm ci`. The lockfile changes in 4 places.",
        "3. Replace `db.query()` with `db.sql()`; the old name is removed in v. 4.",
      ].join("\n"),
      [
        "Bump tinyorm to 3.2.0 in package.json.",
        "Run npm ci.",
        "The lockfile changes in 4 places.",
        "Replace db.query() with db.sql(); the old name is removed in v. 4.",
      ],
    ],
    [
      "English release notes with names and acronyms",
      "The fix was written by Mary K. Chen of Initech Inc. It ships in the U.S. Region first. " +
        "Dr. Patel approved it at 9 a.m. The rollout ends on Jan. 12.",
      [
        "The fix was written by Mary K. Chen of Initech Inc.",
        "It ships in the U.S. Region first.",
        "Dr. Patel approved it at 9 a.m.",
        "The rollout ends on Jan. 12.",
      ],
    ],
    [
      "a German summary with abbreviations and dates",
      [
        "Ich habe den Client angepasst:",
        "",
        "- Der Timeout liegt jetzt bei 30 s, vgl. `client.ts`.",
        "- Wiederholungen sind auf 3 begrenzt bzw. auf 5 bei HTTP 429.",
        "- Fehler werden u. a. im Log vermerkt",
        "",
        "Die Änderung gilt seit dem 3. Oktober 2024. Das Verhalten ist im 2. Abschnitt der Doku beschrieben, " +
          "z. B. die Backoff-Formel. Soll ich noch Tests ergänzen?",
      ].join("\n"),
      [
        "Ich habe den Client angepasst:",
        "Der Timeout liegt jetzt bei 30 s, vgl. client.ts.",
        "Wiederholungen sind auf 3 begrenzt bzw. auf 5 bei HTTP 429.",
        "Fehler werden u. a. im Log vermerkt",
        "Die Änderung gilt seit dem 3. Oktober 2024.",
        "Das Verhalten ist im 2. Abschnitt der Doku beschrieben, z. B. die Backoff-Formel.",
      ],
    ],
    [
      "German prose with titles, addresses and ranges",
      "Die Anfrage kam von Dr. med. Sommer aus der Lindenstr. 5 in Bremen. Sie betrifft kath. Kliniken, " +
        "Praxen u. Ä. in drei Ländern. Die Daten reichen vom 1.–3. Quartal. Eine Übersicht steht auf S. 4.",
      [
        "Die Anfrage kam von Dr. med. Sommer aus der Lindenstr. 5 in Bremen.",
        "Sie betrifft kath. Kliniken, Praxen u. Ä. in drei Ländern.",
        "Die Daten reichen vom 1.–3. Quartal.",
        "Eine Übersicht steht auf S. 4.",
      ],
    ],
    [
      "German lines without punctuation and a hard-wrapped paragraph",
      [
        "Stand der Migration",
        "Alle Tabellen sind migriert",
        "Die Indizes werden neu aufgebaut",
        "",
        "Der Job läuft jede Nacht und",
        "prüft die Fremdschlüssel. Danach wird der Cache geleert.",
      ].join("\n"),
      [
        "Stand der Migration",
        "Alle Tabellen sind migriert",
        "Die Indizes werden neu aufgebaut",
        "Der Job läuft jede Nacht und prüft die Fremdschlüssel.",
        "Danach wird der Cache geleert.",
      ],
    ],
  ])("%s", (_name, reply, expected) => {
    expect(claimsOf(reply)).toEqual(expected)
  })
})

describe("isCheckable", () => {
  test.each([
    ["an English question", "Is the cache enabled by default?"],
    ["a German question", "Ist der Cache standardmäßig aktiv?"],
    ["a question with trailing space", "Should the cache be enabled by default?  "],
    ["an offer: let me know", "Let me know if you need anything else."],
    ["an offer: feel free", "Feel free to ask for more details."],
    ["an offer: would you like", "Would you like me to add tests as well."],
    ["an offer: if you want", "If you want, I can add tests as well."],
    ["an offer, German: Sag Bescheid", "Sag Bescheid, wenn du mehr brauchst."],
    ["an offer, German: Möchtest du", "Möchtest du, dass ich die Tests ergänze."],
    ["a plan: next I will", "Next I will update the config file."],
    ["a plan: I'll now", "I'll now run the test suite again."],
    ["a plan: I'll now, typographic apostrophe", "I’ll now run the test suite again."],
    ["a plan: let me check", "Let me check the config file first."],
    ["a plan, German: Ich werde jetzt", "Ich werde jetzt die Tests ausführen."],
    ["thanks", "Thanks for the detailed report."],
    ["a greeting", "Hello and welcome to the project."],
    ["hope this helps", "Hope this helps with the migration."],
    ["thanks, German", "Danke für den ausführlichen Bericht."],
    ["a greeting, German", "Hallo und willkommen im Projekt."],
    ["an interjection before a plan", "Sure, let me check the config file."],
    ["a fragment: Done.", "Done."],
    ["a fragment: OK", "OK"],
    ["a fragment: 1.", "1."],
    ["no letters", "42 / 17 = 2.47 + 0.5"],
  ])("not a claim: %s", (_name, sentence) => {
    expect(isCheckable(sentence)).toBe(false)
  })

  test.each([
    ["a statement", "The cache is enabled by default."],
    ["a German statement", "Der Cache ist standardmäßig aktiv."],
    ["a statement with a number", "The server listens on port 8080."],
    ["an interjection before a statement", "Great, the build passes on Linux."],
    ["sure before a statement", "Sure, the config sets the port to 8080."],
  ])("a claim: %s", (_name, sentence) => {
    expect(isCheckable(sentence)).toBe(true)
  })

  test("only the checkable sentences of a mixed reply are claims", () => {
    const reply =
      "Thanks for asking! The server listens on port 8080. Would you like me to change it? " +
      "Let me know if you need more. Der Cache ist standardmäßig aktiv. Sag Bescheid, wenn du mehr brauchst."
    expect(claimsOf(reply)).toEqual(["The server listens on port 8080.", "Der Cache ist standardmäßig aktiv."])
  })
})

describe("splitClaims: dedupe and the cap", () => {
  test("identical claims are judged once, also when they differ only in markdown, case or whitespace", () => {
    const reply = [
      "- The API is stable now.",
      "- The **API** is  stable now.",
      "",
      "THE API IS STABLE NOW.",
      "",
      "`The API` is stable now!",
      "",
      "> The _API_ is stable now",
      "",
      "The API is stable today.",
    ].join("\n")
    const { claims, skipped } = splitClaims(reply, 50)
    expect(claims.map((claim) => claim.text)).toEqual(["The API is stable now.", "The API is stable today."])
    expect(claims.map((claim) => claim.key)).toEqual(["the api is stable now", "the api is stable today"])
    expect(skipped).toBe(0)
  })

  test.each([
    [7, 3, 3, 4],
    [7, 7, 7, 0],
    [7, 50, 7, 0],
    [3, 1, 1, 2],
  ])("%i claims with max %i: %i judged, %i skipped", (count, max, judged, skipped) => {
    const reply = Array.from({ length: count }, (_, i) => `Bridge number ${i} crosses the river.`).join(" ")
    const result = splitClaims(reply, max)
    expect(result.claims.map((claim) => claim.text)).toEqual(
      Array.from({ length: judged }, (_, i) => `Bridge number ${i} crosses the river.`),
    )
    expect(result.skipped).toBe(skipped)
  })

  test("duplicates do not count as skipped", () => {
    const reply = "Bridge one is old. Bridge one is old. Bridge two is new. Bridge three is red."
    const result = splitClaims(reply, 2)
    expect(result.claims.map((claim) => claim.text)).toEqual(["Bridge one is old.", "Bridge two is new."])
    expect(result.skipped).toBe(1)
  })
})

// ── Through the host: the cap and the gate cost no judge requests ──

const FACTS = {
  path: "/project/facts.txt",
  text: [
    "The capital of Freedonia is Fredville. It has 3 bridges.",
    "The request cache is enabled by default only when CACHE=1 is set.",
    "Freedonia's national animal is the red fox.",
  ].join("\n"),
}

const judge = startJudge(() => ({ verdict: "faithful", source: "S1", reason: "stated in facts.txt" }))
afterAll(() => judge.stop())

const requestsSince = (before: number) => judge.requests.slice(before).map((request) => request.claim)

describe("through the host", () => {
  test("at most RFE_MAX_CLAIMS claims are judged, and the rest are logged as skipped", async () => {
    const host = createHost({ env: judgeEnv(judge.url, { RFE_MAX_CLAIMS: "2" }) })
    const before = judge.requests.length
    const session = await host.createSession()
    const reply = Array.from({ length: 5 }, (_, i) => `Bridge number ${i} crosses the northern river.`).join(" ")
    await host.readTurn(session, "Tell me about Freedonia", FACTS, reply)
    await host.settle()
    expect(requestsSince(before)).toEqual([
      "Bridge number 0 crosses the northern river.",
      "Bridge number 1 crosses the northern river.",
    ])
    const skipped = host.logs.filter((line) => line.message.includes("over RFE_MAX_CLAIMS"))
    expect(skipped).toHaveLength(1)
    expect(skipped[0]?.level).toBe("info")
    expect(skipped[0]?.message).toBe("ragfaith: 3 claim(s) over RFE_MAX_CLAIMS were not judged")
  })

  test("identical claims of one reply cost one judge request", async () => {
    const host = createHost({ env: judgeEnv(judge.url) })
    const before = judge.requests.length
    const session = await host.createSession()
    const reply =
      "- Fredville has many old bridges.\n- Fredville has **many** old bridges.\n\nFREDVILLE HAS MANY OLD BRIDGES!"
    await host.readTurn(session, "Tell me about Freedonia", FACTS, reply)
    await host.settle()
    expect(requestsSince(before)).toEqual(["Fredville has many old bridges."])
  })

  test("the zero-token gate: verbatim claims are faithful without a request, the rest go to the judge", async () => {
    const host = createHost({ env: judgeEnv(judge.url) })
    const before = judge.requests.length
    const session = await host.createSession()
    const reply = [
      // Verbatim and long enough: gated.
      "The capital of Freedonia is Fredville.",
      // Verbatim, from line 3 of the read output ("3: ..."): gated despite the line number.
      "Freedonia's national animal is the red fox.",
      // Verbatim but short: judged.
      "It has 3 bridges.",
      // A prefix of a qualified source sentence: judged.
      "The request cache is enabled by default.",
    ].join(" ")
    await host.readTurn(session, "Tell me about Freedonia", FACTS, reply)
    await host.settle()
    expect(requestsSince(before)).toEqual(["It has 3 bridges.", "The request cache is enabled by default."])
    expect(host.plugin.counters.gateHits).toBe(2)
    expect(host.prompts).toHaveLength(0)
  })

  test("a reply made only of verbatim claims makes no judge request at all", async () => {
    const host = createHost({ env: judgeEnv(judge.url) })
    const before = judge.requests.length
    const session = await host.createSession()
    await host.readTurn(
      session,
      "Tell me about Freedonia",
      FACTS,
      "The capital of **Freedonia** is Fredville. Freedonia's national animal is the red fox.",
    )
    await host.settle()
    expect(judge.requests.length).toBe(before)
    expect(host.plugin.counters.gateHits).toBe(2)
    expect(host.plugin.counters.requests).toBe(0)
  })

  test.each([
    [
      "`Promise<void>`",
      "The handler now returns `Promise<void>` instead of a value.",
      "The handler now returns Promise<void> instead of a value.",
    ],
    [
      "`Map<string, number>`",
      "The cache is a `Map<string, number>` keyed by path.",
      "The cache is a Map<string, number> keyed by path.",
    ],
    [
      "generics outside backticks",
      "The cache is a Map<string, number> keyed by path.",
      "The cache is a Map<string, number> keyed by path.",
    ],
    ["a tag in code", "Each line ends in `<br>` in the export.", "Each line ends in <br> in the export."],
    ["real HTML outside code", "Press <kbd>Ctrl</kbd> to copy the path.<br>", "Press Ctrl to copy the path."],
    ["German", "Die Methode liefert jetzt `Result<T, E>` zurück.", "Die Methode liefert jetzt Result<T, E> zurück."],
    [
      "underscores in a file name",
      "The package exports it from __init__.py now.",
      "The package exports it from __init__.py now.",
    ],
  ])("code reaches the judge as written: %s", async (_name, reply, claim) => {
    const host = createHost({ env: judgeEnv(judge.url, GATE_OFF) })
    const before = judge.requests.length
    const session = await host.createSession()
    await host.readTurn(session, "What changed?", FACTS, reply)
    await host.settle()
    expect(requestsSince(before)).toEqual([claim])
  })

  test.each([...new Set(BOUNDARY_CASES.map((entry) => entry.class))])(
    "the judge gets each sentence of the class %p as written, as one claim",
    async (name) => {
      for (const entry of BOUNDARY_CASES.filter((c) => c.class === name)) {
        const host = createHost({ env: judgeEnv(judge.url, GATE_OFF) })
        const before = judge.requests.length
        const session = await host.createSession()
        await host.readTurn(session, "What happened?", FACTS, entry.text)
        await host.settle()
        expect(requestsSince(before)).toEqual([...entry.claims])
      }
    },
  )
})

describe("sentences that state nothing to check cost no request", () => {
  test.each([
    ["a lead-in that opens with here's", "Here's what matters:", "a lead-in"],
    ["a two-word heading in prose", "Other settings:", "a lead-in"],
    ["an English to-lead-in", "To upgrade:", "a lead-in"],
    ["a German lead-in", "Zu den übrigen Optionen:", "a lead-in"],
    ["a German summary lead-in", "Kurz gesagt:", "a lead-in"],
    ["a greeting", "Hi there, good to see you.", "a greeting or sign-off"],
    ["a sign-off", "Hope that helps!", "a greeting or sign-off"],
    ["a sign-off after an interjection", "Great, happy coding!", "a greeting or sign-off"],
    ["a German sign-off", "Ich hoffe, das hilft!", "a greeting or sign-off"],
    ["an acknowledgement after a dash", "Yep — good catch.", "a greeting or sign-off"],
    ["a German acknowledgement", "Guter Hinweis!", "a greeting or sign-off"],
    ["an offer", "I can help with the migration too.", "an offer or advice"],
    ["advice", "You could also consider moving the secrets into a separate file.", "an offer or advice"],
    ["advice as a next step", "As a next step, you might want to add a readiness probe.", "an offer or advice"],
    ["German advice", "Du könntest auch die Logstufe auf debug setzen.", "an offer or advice"],
  ])("%s is not judged: %s", (_name, sentence, why) => {
    expect(notAClaim(sentence, true)).toBe(why as ReturnType<typeof notAClaim>)
  })

  test.each([
    ["a lead-in with a count", "The config has two problems:"],
    ["a lead-in about the agent's work", "I changed the retry helper:"],
    ["a German lead-in about the agent's work", "Ich habe retry.ts angepasst:"],
    ["a lead-in naming code", "The handler is registered in `server.ts`:"],
    ["a colon inside a paragraph, not before a list", "Here's the catch: the cache is never cleared."],
    ["advice that gives a reason", "You could also set retries to 5, which the docs recommend."],
    ["advice with a number", "You might want to raise the limit to 50 requests."],
    ["a statement after an interjection", "Great, the build passes on Linux."],
    ["an acknowledgement that goes on to a statement", "Good catch, the cache is cold after a deploy."],
    ["a statement after a dashed interjection", "Yep - the build is green on Linux now."],
  ])("%s stays a claim: %s", (_name, sentence) => {
    expect(notAClaim(sentence, true)).toBeUndefined()
  })

  test("past a bound, sentences that state nothing are counted, not kept", () => {
    const many = Array.from({ length: LIMITS.notClaimsPerReply + 700 }, (_, i) => `Shall I check item ${i}?`)
    const { notClaims, unlisted } = splitClaims(`${many.join(" ")} The cache holds 5 entries.`, 50)
    expect(notClaims).toHaveLength(LIMITS.notClaimsPerReply)
    expect(unlisted).toBe(700)
    expect(notClaims[0]).toEqual({ text: "Shall I check item 0?", why: "a question" })
  })

  test("a colon sentence inside a paragraph is no lead-in: only one that closes its paragraph introduces a list", () => {
    expect(notAClaim("Other settings:", false)).toBeUndefined()
    expect(claimsOf("Other settings: the cache is cold on start.")).toEqual([
      "Other settings: the cache is cold on start.",
    ])
  })

  test.each(CHATTER.map((entry) => [entry.name, entry] as const))(
    "%s: every fabricated statement is judged and noted, and no request goes to what claims nothing",
    async (_name, entry) => {
      const { claims, notClaims } = splitClaims(entry.reply, 50)
      expect(notClaims.length).toBeGreaterThan(0)
      const wrong = new Set(entry.fabricated)
      await withJudge(
        ({ claim }) =>
          wrong.has(claim)
            ? { verdict: "unfaithful", source: "S1", quote: "Freedonia's national animal" }
            : { verdict: "faithful", source: "S1" },
        async (judge) => {
          const host = createHost({
            env: judgeEnv(judge.url, { ...GATE_OFF, RFE_SECOND_OPINION: "0" }),
            correct: () => undefined,
          })
          const session = await host.createSession()
          await host.readTurn(session, "What did you find?", FACTS_FILE, entry.reply)
          await host.settle()
          const asked = judge.requests.map((request) => request.claim)
          for (const skipped of notClaims) expect(asked).not.toContain(skipped.text)
          // what the judge was asked about were claims, and every fabricated one among them
          const texts = claims.map((claim) => claim.text)
          for (const question of asked) expect(texts).toContain(question)
          for (const fabricated of entry.fabricated) expect(asked).toContain(fabricated)
          const note = host.prompts[0]?.text ?? ""
          for (const fabricated of entry.fabricated) expect(note).toContain(fabricated)
        },
      )
    },
  )
})
