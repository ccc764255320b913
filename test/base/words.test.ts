import { describe, expect, test } from "bun:test"
import { wordPattern } from "../../src/base/words.ts"
import { HTML_TAG_RE } from "../../src/claims/prose.ts"
import { GERMAN_WORD_RE, QUESTION_START_RE } from "../../src/claims/words.ts"

const anyOf = (words: readonly string[], flags = "") => new RegExp(`^${wordPattern(words)}$`, flags)

describe("wordPattern", () => {
  test("escapes what means something in a pattern", () => {
    const words = ["a.b", "c+", "(x)", "h[1]", "a|b", "jh.", "$1", "x/y", "^", "a\\b", "{2}", "*?"]
    const re = anyOf(words)
    for (const word of words) expect(re.test(word)).toBe(true)
    for (const other of ["axb", "cc", "x", "h1", "a", "b", "jhx", "1", "", "a\\\\b", "22"])
      expect(re.test(other)).toBe(false)
  })

  test("stays valid with the u flag: a hyphen or a slash is not escaped into an error", () => {
    const re = anyOf(["a-b", "x/y", "über"], "iu")
    expect(re.test("A-B")).toBe(true)
    expect(re.test("x/y")).toBe(true)
    expect(re.test("Über")).toBe(true)
  })

  test.each([
    [["ein", "eine", "einer"], "(?:einer|eine|ein)"],
    [["a", "bb", "c", "dd"], "(?:bb|dd|a|c)"],
    [["was", "is", "was"], "(?:was|is)"],
  ])("longest first, ties in written order, duplicates dropped: %p", (words, source) => {
    expect(wordPattern(words)).toBe(source)
  })

  test("a longer word wins over its own prefix where nothing after the group holds a whole word", () => {
    expect(new RegExp(wordPattern(["ein", "eine"])).exec("eine Frage")?.[0]).toBe("eine")
  })

  test("a blank in a phrase is a space, or what `blank` says", () => {
    expect(anyOf(["rest of the"]).test("rest of the")).toBe(true)
    expect(anyOf(["rest of the"]).test("rest  of\nthe")).toBe(false)
    expect(anyOf(["rest of the"], "").source).toBe("^(?:rest of the)$")
    const wrapped = new RegExp(`^${wordPattern(["rest of the"], { blank: String.raw`\s+` })}$`)
    expect(wrapped.test("rest  of\nthe")).toBe(true)
  })

  test("boundaries around the group are the caller's: `can` is no hit in `cannot`", () => {
    const re = new RegExp(String.raw`\b${wordPattern(["can", "may"])}\b`, "i")
    expect(re.test("You can go")).toBe(true)
    expect(re.test("You cannot go")).toBe(false)
  })
})

describe("patterns built from word lists match as the written patterns did", () => {
  const questions = [
    "Is it on?",
    "Welchem Nutzer gehört das?",
    "Welches?",
    "welchen",
    "Was ist das?",
    "What now?",
    "Welcherlei?",
    "Sind wir da?",
    "Where is it",
    "Why not",
    "Kannst du?",
    "Isn't it",
    "island",
    "Dies ist",
    "…wie bitte?",
  ]
  test.each(questions)("a question opens with a question word: %p", (text) => {
    const written =
      /^\W*(?:is|are|was|were|do|does|did|can|could|would|should|will|shall|may|might|must|has|have|had|what|why|how|where|when|who|whom|whose|which|ist|sind|war|waren|hat|hast|habt|haben|kann|kannst|können|soll|sollte|sollen|wird|wirst|werden|würde|darf|muss|gibt|bist|seid|was|warum|wieso|weshalb|wie|wo|woher|wohin|wann|wer|wen|wem|welche[rsnm]?)\b/i
    expect(QUESTION_START_RE.test(text)).toBe(written.test(text))
  })

  test("German words are counted as before", () => {
    const written =
      /(?<!\p{L})(?:der|die|das|und|ist|nicht|mit|ein|eine|auf|sich|dem|den|wird|sind|auch|bei|zum|zur|für|oder|wenn)(?!\p{L})/giu
    const text = "Die Tests sind grün, und eine Datei ist für den Build nicht nötig; einer oder keiner. Dieser Satz."
    expect(text.match(GERMAN_WORD_RE)).toEqual(text.match(written))
  })

  test("HTML tags are found as before", () => {
    const written =
      /<(\/?)(?:a|abbr|b|bdi|big|blockquote|br|center|cite|code|dd|del|details|div|dl|dt|em|font|h[1-6]|hr|i|img|ins|kbd|li|mark|ol|p|picture|pre|q|s|samp|small|source|span|strike|strong|sub|summary|sup|table|tbody|td|th|thead|tr|tt|u|ul|var|wbr)(?:\s[^<>]{0,200})?\/?>/gi
    const text = '<b>x</b> <br/> <h6 id="a">t</h6> <h7> <bx> Promise<void> <summary> <sub></sub> <TT> <strongest>'
    expect([...text.matchAll(HTML_TAG_RE)].map((m) => [m.index, ...m])).toEqual(
      [...text.matchAll(written)].map((m) => [m.index, ...m]),
    )
  })
})
