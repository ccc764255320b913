// What states nothing a source could confirm, and why: questions, fragments, greetings, offers, lead-ins.
import { wordPattern } from "../base/words.ts"
import type { NotAClaim } from "../state/shapes.ts"

export const MIN_CLAIM_CHARS = 10

/** A word that opens a sentence without saying anything: what follows it decides. */
const INTERJECTION_RE = /^(?:sure|great|okay|ok|perfect|alright|yep|yes|yeah|ja|genau)(?:[,!.]|\s+[—–-])\s+/i

/** A sentence that only acknowledges the user ("Good catch.", "Fair point!", "Guter Hinweis."), whole. */
const ACKNOWLEDGEMENT_RE =
  /^(?:good|nice|great) (?:catch|point|question|idea)|^fair point|^(?:guter|berechtigter) (?:hinweis|einwand|punkt)|^gute (?:frage|idee)(?=[.!]*$)/i

const GREETINGS = [
  ...["hi", "hello", "hey", "thanks", "thank you", "you're welcome", "you’re welcome"],
  ...["got it", "sounds good", "all set", "happy coding", "happy hacking", "cheers", "good luck"],
] as const

const GERMAN_GREETINGS = [
  ...["hallo", "moin", "servus", "danke", "vielen dank"],
  ...["gern geschehen", "viel erfolg", "viel spaß", "beste grüße", "viele grüße"],
] as const

/** Greetings, thanks and sign-offs, English and German. */
const GREETING_RE = new RegExp(
  String.raw`^(?:${wordPattern([...GREETINGS, ...GERMAN_GREETINGS])}|(?:i )?hope (?:this|that|it) helps|glad (?:i|to) (?:could )?help|ich hoffe,? (?:das|es) hilft)\b`,
  "i",
)

const OFFERS = [
  ...["let me know", "feel free", "would you like", "do you want", "want me to", "shall i"],
  ...["should i", "i can also", "i could also", "i can help", "happy to", "let me"],
] as const

const GERMAN_OFFERS = ["lass mich", "falls du", "möchtest du", "soll ich", "als nächstes werde ich"] as const

/** What "I'll" or "I will" goes on with in a plan: "I'll check …", "I will now …". */
const PLAN_WORDS = [
  ...["now", "next", "then", "start", "begin", "go", "check"],
  ...["look", "run", "try", "update", "fix", "add"],
] as const

/**
 * Offers and plans: what the agent could do or will do next, not what is. "I'll run the tests" is a plan;
 * "I ran the tests" is a claim, and stays one.
 */
const OFFER_RE = new RegExp(
  `^(?:${wordPattern([...OFFERS, ...GERMAN_OFFERS])}|if you(?:['’]d)? (?:want|like|need|prefer)|next,? i(?:['’]ll| will)|i(?:['’]ll| will) ${wordPattern(PLAN_WORDS)}|now i(?:['’]ll| will)|sag (?:mir )?bescheid|wenn du (?:möchtest|willst)|ich kann (?:auch|gern|dir)|ich werde (?:jetzt|nun|als nächstes))`,
  "i",
)

/**
 * Offers that hang on the user's say ("If you'd rather keep it, we could …", "I can loosen the tolerance if you
 * agree.", "Wenn du magst, kann ich …"): judged all the same when they give a reason or a fact.
 */
const CONDITIONAL_OFFER_RE =
  /^(?:if you(?:['’]d)? (?:rather|prefer|agree|like|want)\b|if (?:yes|not|so),? (?:i|we)(?:['’]ll| can| could| will)\b|falls (?:ja|nicht),? (?:kann|könnte|werde) ich\b|(?:alternatively|otherwise),? (?:we|i) (?:could|can)\b|we could (?:also )?(?:keep|drop|add|switch|pin|move|split|rename|revert|try)\b|i (?:can|could) (?:also )?\p{L}+\b.*\bif you (?:agree|want|like|prefer|['’]d like|need)\b|wenn du (?:magst|willst|möchtest|einverstanden bist)\b|falls (?:gewünscht|du (?:magst|willst|möchtest))\b|alternativ (?:könnten wir|kann ich|könnte ich)\b|wir könnten (?:auch )?|ich kann\b.*\b(?:wenn du|falls du|falls gewünscht)\b)/iu

/**
 * What the agent means to do next, whatever the verb: "I need to check …", "Now let me summarise …", "I'll sweep
 * the codebase …", "Ich muss noch …". A plan that reports something ("I should note that the cache is cold",
 * "I need to report the findings: …") stays a claim.
 */
const INTENT_RE =
  /^(?:(?:now|next|first|then|so|okay|ok),?\s+)?(?:(?:i|we)(?:\s+(?:still|also|first|now))?(?:\s+(?:need to|have to|must|should|want to|am going to|are going to|will)|['’](?:m going to|re going to|ll))\b|let me\b|let['’]s\b|(?:ich|wir)\s+(?:muss|müssen|sollte|sollten|werde|werden|will|wollen)\b)/iu

/** What makes a plan report something after all: a clause that says what is, a word of telling, a colon before what was found. */
const REPORTING_PLAN_RE = /\b(?:that|dass|note|mention|point out|erwähnen|anmerken)\b|:/i

/** Advice about what the user could do next; judged all the same when it gives a reason or a fact. */
const ADVICE_RE =
  /^(?:next,? you (?:can|could|might|should)|you (?:could|might|may) (?:also |then |first )?(?:want to|consider|try|add|run|use|switch)|consider (?:adding|using|running|switching|moving|enabling|disabling|writing|splitting)|as a next step|a good next step|als nächsten schritt|du könntest (?:auch |noch )?)/i

/** A clause that gives a reason or a fact: advice that says why ("…, which the docs recommend") still claims. */
const REASON_CLAUSE_RE =
  /\b(?:because|since|which|as (?:the|its) \w+ (?:says|states|recommends)|weil|denn|da (?:die|der|das))\b|\d/i

/** Counts and quantities, English and German: a lead-in that holds one claims a count. */
const COUNT_WORDS = [
  ...["two", "three", "four", "five", "six", "seven", "eight"],
  ...["nine", "ten", "twelve", "all", "only", "every", "none", "both"],
] as const

const GERMAN_COUNT_WORDS = [
  ...["ein", "eine", "zwei", "drei", "vier", "fünf", "sechs", "sieben"],
  ...["acht", "neun", "zehn", "alle", "nur", "beide", "keine"],
] as const

/**
 * Words in a lead-in that make it say something checkable: a number, a count, code, a quote, a path or a
 * name of the sources ("The config has three options:" claims a count; "Other settings:" claims nothing).
 */
// "one" counts as a number, "one-liner" does not.
const LEAD_IN_CONTENT_RE = new RegExp(
  String.raw`\d|\`|["“„‘]|(?:^|\s)'|\/|\b(?:one(?!-)|${wordPattern([...COUNT_WORDS, ...GERMAN_COUNT_WORDS])})\b`,
  "i",
)

const LEAD_IN_OPENERS = [
  ...["here's", "here’s", "here is", "here are", "the following", "following"],
  ...["below", "for example", "for instance", "in short", "in summary", "to sum up"],
  ...["in detail", "other", "further", "more on", "some", "a few", "what"],
] as const

const GERMAN_LEAD_IN_OPENERS = [
  ...["hier ist", "hier sind", "folgende", "im folgenden", "zum beispiel", "kurz gesagt"],
  ...["zusammengefasst", "zu den", "zur", "zum", "weitere", "andere", "was"],
] as const

/**
 * How a lead-in opens: it points at what follows ("Here's what matters:", "Zu den übrigen Optionen:", "What this
 * now covers:", "Was sich geändert hat:"), or says what for ("To upgrade:", "Um … zu …", "um" only as a word).
 */
const LEAD_IN_OPENER_RE = new RegExp(
  String.raw`^(?:${wordPattern([...LEAD_IN_OPENERS, ...GERMAN_LEAD_IN_OPENERS])}|to \p{L}+|um )`,
  "iu",
)

/**
 * A colon sentence that says where what follows comes from or applies, with no clause of its own (no comma):
 * "Based on our test results:", "Looking at their docs:", "In the browser console on any admin page:", "Key
 * decisions to ask the user:", "Laut der Doku:". A word such as "Actually," before it changes nothing.
 */
const POINTING_LEAD_IN_RE =
  /^(?:(?:actually|so|now|also|and|but|ok|okay|also|nun|jetzt|und),?\s+)?(?:based on|looking (?:back )?at|according to|as per|per|from|in|on|for|with|within|key|main|possible|remaining|expected|open|basierend auf|ausgehend von|laut|gemäß|im|in|für|mit|wichtige|offene|mögliche)\s[^,;]*:$/iu

/**
 * A colon sentence whose verb is a plain "is" or "are" at its end: the block after it is what it says ("The
 * immediate next steps are:", "So the actual difference is:", "Die nächsten Schritte sind:").
 */
const COPULA_LEAD_IN_RE =
  /^(?:(?:so|and|but|now|also|und|also),?\s+)?(?:the|our|my|your|its|their|these|those|this|that|der|die|das|unsere?|meine?|deren|dessen)\s[^,;:]{0,60}?\s(?:is|are|was|were|include|includes|ist|sind|war|waren|lautet|lauten)\s*:$/iu

/**
 * A colon sentence this short ("To upgrade:", "Other settings:") is a heading in prose, whatever it opens with.
 * Words in brackets only qualify it ("Validation (via PTY, as requested):", "Display names (derived):").
 */
const LEAD_IN_MAX_WORDS = 3

/** A bracketed aside of a lead-in, with the space before it. */
const ASIDE_RE = /\s*\([^()]*\)/g

/** A lead-in that opens with what was done ("Fixed the parser (it dropped a line):") reports work: its aside counts. */
const DONE_START_RE = /^(?:\p{L}+ed|ran|wrote|made|built|found|read|did|put|set|took|kept|left|gave|brought)\b/iu

/** How many words a colon sentence has as a heading: without its bracketed asides, unless it reports work. */
function headingWords(text: string): number {
  return (DONE_START_RE.test(text) ? text : text.replace(ASIDE_RE, "")).split(/\s+/).length
}

/**
 * A longer colon sentence that only names the block after it: the fix, the change, the numbers "at a glance"
 * ("The fix is a one-liner:", "The relevant change looks like this:", "Die Latenzen im Überblick:").
 */
const BLOCK_NAMING_RE =
  /(?:\b(?:as follows|like this|like so|the following|below|at a glance|in a nutshell|in brief|in short|one-liner|in detail|side by side|before and after)|(?<!\p{L})(?:im überblick|auf einen blick|wie folgt(?:\s+\p{L}+)?|folgendermaßen|so aus|im detail|kurz zusammengefasst|im vergleich|vorher und nachher|einzeiler))\s*:$|^(?:the|my|our|this|die|der|das|mein\p{L}*|unser\p{L}*|diese\p{L}*)\s+(?:\p{L}+\s+)?(?:fix|change|changes|diff|patch|result|results|output|summary|plan|idea|gist|approach|steps|options|numbers|timings|details|änderung(?:en)?|ergebnis(?:se)?|zusammenfassung|lösung|schritte|optionen|zahlen|details|latenzen|messwerte)(?:\s+(?:is|are|looks|look|was|were|ist|sind|sieht|sehen|war|waren)\b[^:]{0,40})?\s*:$/iu

/** The agent telling what it did ("I refreshed the lockfile:", "Ich habe retry.ts angepasst:"): a claim. */
const OWN_ACTION_RE =
  /^(?:i|we)\s+(?:\p{L}+ed|ran|wrote|made|built|found|read|did|put|set|took|kept|left|gave|brought)\b|^(?:ich|wir)\s+(?:habe|haben)\b/iu

/**
 * A sentence that only introduces the list or block after it. One that says something itself stays a claim:
 * "I changed the client:" reports the agent's work, "The config has three options:" a count.
 */
function isLeadIn(text: string, words: number, closesParagraph: boolean): boolean {
  if (!closesParagraph || !text.endsWith(":") || LEAD_IN_CONTENT_RE.test(text)) return false
  if (words <= LEAD_IN_MAX_WORDS || LEAD_IN_OPENER_RE.test(text)) return true
  if (POINTING_LEAD_IN_RE.test(text) || COPULA_LEAD_IN_RE.test(text)) return true
  return !OWN_ACTION_RE.test(text) && BLOCK_NAMING_RE.test(text)
}

/**
 * Why `sentence` is no claim, or undefined when it is one. `closesParagraph` says that a list, a block or a
 * new paragraph follows it, as after a lead-in that ends in a colon.
 */
export function notAClaim(sentence: string, closesParagraph = false): NotAClaim | undefined {
  const text = sentence.trim()
  // One word: a sentence comes trimmed, so a space anywhere means two.
  if (text.length < MIN_CLAIM_CHARS || !/\p{L}{2}/u.test(text) || !/\s/.test(text)) return "too short"
  if (/\?["'”’)\]]*$/.test(text)) return "a question"
  const plain = text.replace(INTERJECTION_RE, "")
  if (GREETING_RE.test(plain) || (ACKNOWLEDGEMENT_RE.test(plain) && /^[^,;:]*[.!]*$/.test(plain)))
    return "a greeting or sign-off"
  if (OFFER_RE.test(plain)) return "an offer or advice"
  const hedged = ADVICE_RE.test(plain) || CONDITIONAL_OFFER_RE.test(plain)
  if (hedged && !REASON_CLAUSE_RE.test(plain)) return "an offer or advice"
  if (INTENT_RE.test(plain) && !REPORTING_PLAN_RE.test(plain)) return "an offer or advice"
  if (closesParagraph && isLeadIn(text, headingWords(text), closesParagraph)) return "a lead-in"
  return undefined
}

const ENGLISH_ACTIONS =
  "updated|edited|modified|changed|created|added|touched|deleted|removed|renamed|fixed|read|reviewed|inspected"

/** "Updated files:", "Files changed:", "Changes I made to:", "I updated these files:": a lead-in that states an action. */
const ENGLISH_ACTION_LEAD_RE = new RegExp(
  `^(?:(?:the\\s+)?(?:files?|changes?)\\s+(?:i\\s+|we\\s+)?(${ENGLISH_ACTIONS})|(${ENGLISH_ACTIONS})(?:\\s+(?:the\\s+)?(?:following\\s+)?files?)?|(?:i|we)\\s+(?:have\\s+|also\\s+)?(${ENGLISH_ACTIONS})\\s+(?:these|those|the\\s+following)(?:\\s+files?)?)\\s*:$`,
  "i",
)

/** German lead-ins and the participle each item takes: "Geänderte Dateien:", "Ich habe folgende Dateien angepasst:". */
const GERMAN_ACTION_LEAD_RE =
  /^(?:(geänderte|angepasste|aktualisierte|bearbeitete|erstellte|neue|gelöschte|gelesene)\s+dateien|(geändert|angepasst|aktualisiert|bearbeitet|erstellt|gelöscht|gelesen)|(?:ich|wir)\s+habe?n?\s+(?:folgende|diese|die\s+folgenden)\s+dateien\s+(geändert|angepasst|aktualisiert|bearbeitet|erstellt|gelöscht|gelesen))\s*:$/iu

const GERMAN_PARTICIPLES: Readonly<Record<string, string>> = {
  geänderte: "geändert",
  angepasste: "angepasst",
  aktualisierte: "aktualisiert",
  bearbeitete: "bearbeitet",
  erstellte: "erstellt",
  neue: "erstellt",
  gelöschte: "gelöscht",
  gelesene: "gelesen",
}

/**
 * For a lead-in that states an action and names nothing itself ("Updated files:", "Geänderte Dateien:"), what
 * each item under it claims: "Updated `src/a.ts`", "Ich habe `src/a.ts` geändert". Undefined for any other.
 */
export function listAction(leadIn: string): ((item: string) => string) | undefined {
  const text = leadIn.trim()
  const english = ENGLISH_ACTION_LEAD_RE.exec(text)
  const verb = english?.[1] ?? english?.[2] ?? english?.[3]
  if (verb) {
    const lower = verb.toLowerCase()
    return (item) => `${lower[0]?.toUpperCase()}${lower.slice(1)} ${item}`
  }
  const german = GERMAN_ACTION_LEAD_RE.exec(text)
  const adjective = german?.[1]?.toLowerCase()
  const participle = (adjective ? GERMAN_PARTICIPLES[adjective] : undefined) ?? german?.[2] ?? german?.[3]
  if (!participle) return undefined
  const done = participle.toLowerCase()
  return (item) => {
    // "`src/a.ts`: liest jetzt den Port" keeps its words after the file: the participle goes after the file.
    const colon = /^(`[^`]+`|\S+):\s*(.+)$/.exec(item)
    return colon ? `Ich habe ${colon[1]} ${done}: ${colon[2]}` : `Ich habe ${item} ${done}`
  }
}
