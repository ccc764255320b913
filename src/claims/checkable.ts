// What states nothing a source could confirm, and why: questions, fragments, greetings, offers, lead-ins.
import { wordPattern } from "../base/words.ts"
import type { NotAClaim } from "../state/shapes.ts"

export const MIN_CLAIM_CHARS = 10

/** A word that opens a sentence without saying anything: what follows it decides. */
const INTERJECTION_RE = /^(?:sure|great|okay|ok|perfect|alright)[,!.]\s+/i

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

/** Advice about what the user could do next; judged all the same when it gives a reason or a fact. */
const ADVICE_RE =
  /^(?:next,? you (?:can|could|might|should)|you (?:could|might|may) (?:also |then |first )?(?:want to|consider|try|add|run|use|switch)|consider (?:adding|using|running|switching|moving|enabling|disabling|writing|splitting)|as a next step|a good next step|als nächsten schritt|du könntest (?:auch |noch )?)/i

/** A clause that gives a reason or a fact: advice that says why ("…, which the docs recommend") still claims. */
const REASON_CLAUSE_RE =
  /\b(?:because|since|which|as (?:the|its) \w+ (?:says|states|recommends)|weil|denn|da (?:die|der|das))\b|\d/i

/** Counts and quantities, English and German: a lead-in that holds one claims a count. */
const COUNT_WORDS = [
  ...["one", "two", "three", "four", "five", "six", "seven", "eight"],
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
const LEAD_IN_CONTENT_RE = new RegExp(
  String.raw`\d|\`|["“„‘]|(?:^|\s)'|\/|\b${wordPattern([...COUNT_WORDS, ...GERMAN_COUNT_WORDS])}\b`,
  "i",
)

const LEAD_IN_OPENERS = [
  ...["here's", "here’s", "here is", "here are", "the following", "following"],
  ...["below", "for example", "for instance", "in short", "in summary", "to sum up"],
  ...["in detail", "other", "further", "more on", "some", "a few"],
] as const

const GERMAN_LEAD_IN_OPENERS = [
  ...["hier ist", "hier sind", "folgende", "im folgenden", "zum beispiel", "kurz gesagt"],
  ...["zusammengefasst", "zu den", "zur", "zum", "weitere", "andere"],
] as const

/**
 * How a lead-in opens: it points at what follows ("Here's what matters:", "Zu den übrigen Optionen:"), or says
 * what for ("To upgrade:", "Um … zu …", "um" only as a word of its own).
 */
const LEAD_IN_OPENER_RE = new RegExp(
  String.raw`^(?:${wordPattern([...LEAD_IN_OPENERS, ...GERMAN_LEAD_IN_OPENERS])}|to \p{L}+|um )`,
  "iu",
)

/** A colon sentence this short ("To upgrade:", "Other settings:") is a heading in prose, whatever it opens with. */
const LEAD_IN_MAX_WORDS = 3

/**
 * A sentence that only introduces the list or block after it. One that says something itself stays a claim:
 * "I changed the client:" reports the agent's work, "The config has three options:" a count.
 */
function isLeadIn(text: string, words: number, closesParagraph: boolean): boolean {
  if (!closesParagraph || !text.endsWith(":") || LEAD_IN_CONTENT_RE.test(text)) return false
  return words <= LEAD_IN_MAX_WORDS || LEAD_IN_OPENER_RE.test(text)
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
  if (GREETING_RE.test(plain)) return "a greeting or sign-off"
  if (OFFER_RE.test(plain) || (ADVICE_RE.test(plain) && !REASON_CLAUSE_RE.test(plain))) return "an offer or advice"
  if (closesParagraph && isLeadIn(text, text.split(/\s+/).length, closesParagraph)) return "a lead-in"
  return undefined
}
