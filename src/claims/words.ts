// Words that decide a sentence boundary: abbreviations by how they end sentences, and the words sentences open with.
import { wordPattern } from "../base/words.ts"

/** Titles and mid-sentence abbreviations, English and German: a period after them never ends a sentence. */
export const FIXED_ABBREVIATIONS = new Set([
  ...["mr", "mrs", "ms", "mx", "dr", "prof", "rev", "fr", "st", "mt", "ft", "capt", "lt", "sgt", "messrs", "mme"],
  ...["mlle", "hon", "cf", "vs", "viz", "approx", "ca", "esp", "incl", "excl", "resp", "ref", "hr", "hrn", "frl"],
  ...["dipl", "ing", "med", "rer", "nat", "phil", "jur", "dent", "vet", "habil", "mag", "bzw", "vgl", "ggf", "evtl"],
  ...["inkl", "zzgl", "exkl", "bspw", "sog", "ggü", "gem", "lt", "kath", "ev", "evang", "ehem", "einschl", "entspr"],
  ...["insb", "insbes", "allg", "dt", "engl", "frz", "geb", "gegr", "bzgl", "tlw", "zz", "zzt", "dgl"],
  // Titles before a name, singular and plural ("Sen. Kennedy", "Drs. Ali and Khan"), and "PS." before a note.
  ...["sen", "sens", "rep", "reps", "gov", "gen", "col", "maj", "adm", "pres", "supt", "atty", "drs", "profs"],
  ...["cpl", "pvt", "brig", "ps", "abg"],
])

/** Abbreviations that stand before a number ("Str. 5", "Nr. 3", "p. 55", "Jan. 2025"), and may end a sentence. */
export const NUMBER_ABBREVIATIONS = new Set([
  ...["no", "nos", "nr", "p", "pp", "s", "fig", "figs", "vol", "vols", "abs", "art", "kap", "bd", "tab", "abb"],
  ...["eq", "sec", "sect", "ch", "chap", "str", "tel", "ver", "v", "op", "anm", "par", "ziff", "pos", "min", "max"],
  ...["mind", "pt", "pkt", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "okt", "nov"],
  ...["dec", "dez"],
])

/** Abbreviations that often end a sentence: a capital after them starts a new one ("... Sam Vimes Jr. Sam ..."). */
export const FINAL_ABBREVIATIONS = new Set([
  ...["jr", "sr", "inc", "ltd", "co", "corp", "llc", "plc", "gmbh", "ag", "kg", "bros", "esq", "etc", "al", "usw"],
  ...["usf", "a.m", "p.m", "ph.d", "u.v.m", "u.s.w"],
  // Eras: "in 476 A.D. Rome was sacked" ends after the era, "until 14 A.D. and" goes on.
  ...["a.d", "b.c", "b.c.e", "c.e"],
])

/**
 * Units after a number: "984 ft. It was" ends there, but "3 Std. Anfahrt" goes on, so the sentence ends
 * only before a usual sentence opener (like an acronym). "ft" without a number before it is Fort.
 */
export const UNIT_ABBREVIATIONS = new Set([
  ...["ft", "yd", "mi", "lb", "lbs", "oz", "gal", "qt", "hr", "hrs", "min", "mins", "sec", "secs", "mo", "mos"],
  ...["wk", "wks", "yr", "yrs", "sq", "cu", "std", "sek", "mio", "mrd", "tsd", "stk", "kt"],
])

/**
 * Words that begin sentences far more often than they follow an initial or an acronym inside a name: after
 * "U.S." or "E." a capitalised word from this list starts a new sentence, any other continues the name.
 */
export const SENTENCE_STARTERS = new Set([
  ...["a", "an", "the", "this", "that", "these", "those", "it", "its", "it's", "we", "they", "he", "she", "i", "you"],
  ...["there", "here", "then", "but", "and", "or", "so", "yet", "if", "when", "while", "after", "before", "since"],
  ...["because", "although", "in", "on", "at", "for", "to", "from", "with", "by", "as", "of", "all", "each", "every"],
  ...["no", "not", "none", "yes", "how", "what", "why", "where", "who", "which", "our", "my", "your", "their", "his"],
  ...["her", "one", "both", "also", "however", "now", "next", "finally", "first", "second", "last", "only", "some"],
  ...["most", "many", "much", "more", "several", "few", "any", "another", "other", "such", "let", "please", "see"],
  ...["note", "is", "are", "was", "were", "do", "does", "did", "can", "could", "would", "should", "will", "may"],
  ...["must", "has", "have", "had", "thus", "instead", "otherwise", "today", "overall", "still", "even", "just"],
  ...["der", "die", "das", "dem", "den", "des", "ein", "eine", "einer", "eines", "einem", "einen", "es", "er", "sie"],
  ...["wir", "ich", "du", "ihr", "man", "dies", "diese", "dieser", "dieses", "dort", "hier", "da", "dann", "danach"],
  ...["daher", "deshalb", "damit", "dabei", "dazu", "aber", "und", "oder", "doch", "denn", "wenn", "als", "auch"],
  ...["im", "am", "an", "auf", "mit", "für", "bei", "nach", "vor", "von", "zum", "zur", "wie", "was", "warum", "wo"],
  ...["wer", "welche", "unser", "unsere", "mein", "meine", "alle", "jeder", "jede", "kein", "keine", "nicht", "nur"],
  ...["bitte", "siehe", "außerdem", "zudem", "jetzt", "nun", "heute", "zuerst", "schließlich", "insgesamt", "ist"],
  ...["sind", "war", "waren", "hat", "haben", "wird", "werden", "kann", "können", "soll", "muss", "gibt"],
])

/**
 * Subjects that open a report's next sentence and never name the thing an acronym abbreviates: quantities,
 * groups of people and pronouns. After "the U.S." a usual opener ends the sentence already; these end it too
 * ("… in the history of the U.S. Millions attended …"), while "U.S. Census" and "U.S. Region" go on.
 */
export const SUBJECT_OPENERS = new Set([
  ...["millions", "thousands", "hundreds", "dozens", "billions", "tens", "scores", "officials", "critics"],
  ...["residents", "people", "experts", "others", "researchers", "analysts", "authorities", "police", "voters"],
  ...["visitors", "crowds", "fans", "protesters", "supporters", "opponents", "citizens", "workers", "students"],
  ...["everyone", "everybody", "nobody", "someone", "somebody", "something", "nothing", "everything", "anyone"],
  ...["lawmakers", "economists", "scientists", "tourists", "customers", "users", "companies", "prices", "sales"],
  ...["tausende", "hunderte", "millionen", "dutzende", "zehntausende", "viele", "einige", "manche", "beide"],
])

const QUESTION_WORDS = [
  ...["is", "are", "was", "were", "do", "does", "did", "can", "could", "would", "should", "will", "shall", "may"],
  ...["might", "must", "has", "have", "had", "what", "why", "how", "where", "when", "who", "whom", "whose", "which"],
] as const

const GERMAN_QUESTION_WORDS = [
  ...["ist", "sind", "war", "waren", "hat", "hast", "habt", "haben", "kann", "kannst"],
  ...["können", "soll", "sollte", "sollen", "wird", "wirst", "werden", "würde", "darf", "muss"],
  ...["gibt", "bist", "seid", "was", "warum", "wieso", "weshalb", "wie", "wo", "woher"],
  ...["wohin", "wann", "wer", "wen", "wem", "welche", "welcher", "welches", "welchen", "welchem"],
] as const

/** How questions open, so that a question cut at an abbreviation is put back together instead of leaking. */
export const QUESTION_START_RE = new RegExp(
  String.raw`^\W*${wordPattern([...QUESTION_WORDS, ...GERMAN_QUESTION_WORDS])}\b`,
  "i",
)

const MONTHS = [
  ...["januar", "februar", "märz", "april", "mai", "juni"],
  ...["juli", "august", "september", "oktober", "november", "dezember"],
] as const

const MONTH_ABBREVIATIONS = ["jan", "feb", "mär", "apr", "jun", "jul", "aug", "sep", "okt", "nov", "dez"] as const

export const MONTH_START_RE = new RegExp(String.raw`^${wordPattern([...MONTHS, ...MONTH_ABBREVIATIONS])}\b`, "i")

/** German nouns an ordinal stands before ("im 19. Jahrhundert", "die 2. Auflage"); other capitals start sentences. */
const ORDINAL_NOUNS = [
  ...["jahrhundert", "jahrtausend", "jh.", "klasse", "stock", "etage", "auflage", "ausgabe", "platz"],
  ...["rang", "mal", "kapitel", "abschnitt", "absatz", "quartal", "halbjahr", "semester", "liga"],
  ...["runde", "spieltag", "schritt", "stufe", "ebene", "generation", "ordnung", "version", "tag"],
  ...["woche", "monat", "jahr", "lebensjahr", "geburtstag", "weltkrieg", "teil", "band", "reihe"],
  ...["zeile", "spalte", "iteration", "durchlauf", "versuch", "hälfte", "fall", "advent", "sonntag"],
] as const

export const ORDINAL_NOUN_START_RE = new RegExp(
  String.raw`^${wordPattern(ORDINAL_NOUNS)}(?:e|en|er|es|n|s)?(?![\p{L}])`,
  "iu",
)

/** Articles and prepositions before a German ordinal: "auf der 35. Kommandeurstagung" names a counted thing. */
const BEFORE_ORDINAL_WORDS = [
  ...["der", "die", "das", "dem", "den", "des", "ein", "eine", "einer", "einem", "einen", "am", "im"],
  ...["zum", "zur", "vom", "beim", "ins", "ans", "seit", "ab", "bis", "für", "nach", "vor"],
] as const

/** Determiners before an ordinal, each with its endings (`[mnrs]?`): "seiner", "unserem". */
const DECLINED_BEFORE_ORDINAL = ["seine", "ihre", "unsere", "jede", "diese"] as const

export const BEFORE_ORDINAL_RE = new RegExp(
  String.raw`(?:^|\s)(?:${wordPattern(BEFORE_ORDINAL_WORDS)}|${wordPattern(DECLINED_BEFORE_ORDINAL)}[mnrs]?)\s*$`,
  "i",
)

/** Words only German text has this often: a paragraph with several of them is read as German. */
const GERMAN_WORDS = [
  ...["der", "die", "das", "und", "ist", "nicht", "mit", "ein", "eine", "auf", "sich"],
  ...["dem", "den", "wird", "sind", "auch", "bei", "zum", "zur", "für", "oder", "wenn"],
] as const

export const GERMAN_WORD_RE = new RegExp(String.raw`(?<!\p{L})${wordPattern(GERMAN_WORDS)}(?!\p{L})`, "giu")
