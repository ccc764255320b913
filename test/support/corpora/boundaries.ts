/**
 * Sentence-boundary cases by failure class, English and German: our own sentences, each written after a kind
 * of public text where the class occurs (`from` names it: an encyclopedia article whose facts the sentence
 * states, or the public treebank or test set whose sentences showed the class). No sentence is copied from
 * those texts. `text` is a whole reply; `claims` are the claims expected from it, in order.
 */

export type BoundaryClass =
  | "era and unit after a number"
  | "lowercase sentence start"
  | "a.m./p.m. before a title"
  | "missing abbreviation"
  | "initial before a surname"
  | "! or ? inside a sentence"
  | "quoted sentence inside a sentence"
  | "German hard wrap before a noun"
  | "German ordinal before a noun"
  | "a contraction before the full stop"

export interface BoundaryCase {
  class: BoundaryClass
  language: "en" | "de"
  text: string
  claims: string[]
  from: string
}

export const BOUNDARY_CASES: readonly BoundaryCase[] = [
  {
    class: "era and unit after a number",
    language: "en",
    text: "The Western Roman Empire ended in 476 A.D. Rome had been sacked twice before that.",
    claims: ["The Western Roman Empire ended in 476 A.D.", "Rome had been sacked twice before that."],
    from: "Wikipedia, 'Fall of the Western Roman Empire' (dates)",
  },
  {
    class: "era and unit after a number",
    language: "en",
    text: "Augustus became emperor in 27 B.C. He ruled until 14 A.D. and was succeeded by Tiberius.",
    claims: ["Augustus became emperor in 27 B.C.", "He ruled until 14 A.D. and was succeeded by Tiberius."],
    from: "Wikipedia, 'Augustus' (dates)",
  },
  {
    class: "era and unit after a number",
    language: "en",
    text: "The Eiffel Tower is about 1,083 ft. It was the tallest structure in the world until 1930.",
    claims: ["The Eiffel Tower is about 1,083 ft.", "It was the tallest structure in the world until 1930."],
    from: "Wikipedia, 'Eiffel Tower' (height, record)",
  },
  {
    class: "era and unit after a number",
    language: "de",
    text: "Die Stadt wurde um 15 v. Chr. gegründet. Sie liegt am Rhein.",
    claims: ["Die Stadt wurde um 15 v. Chr. gegründet.", "Sie liegt am Rhein."],
    from: "Wikipedia (de), 'Augsburg' (Gründung)",
  },
  {
    class: "era and unit after a number",
    language: "de",
    text: "Für die Strecke brauchen wir etwa 3 Std. Anfahrt mit dem Zug.",
    claims: ["Für die Strecke brauchen wir etwa 3 Std. Anfahrt mit dem Zug."],
    from: "UD German-GSD, reviews (a unit before a noun)",
  },
  {
    class: "lowercase sentence start",
    language: "en",
    text: "The release shipped on 12 May 2024. it fixed the cache bug.",
    claims: ["The release shipped on 12 May 2024.", "it fixed the cache bug."],
    from: "UD English-EWT, e-mail (a full stop, a number, then a lowercase sentence)",
  },
  {
    class: "lowercase sentence start",
    language: "en",
    text: "i restarted the worker twice. they both came back healthy. the queue is empty now.",
    claims: ["i restarted the worker twice.", "they both came back healthy.", "the queue is empty now."],
    from: "UD English-EWT, e-mail and answers (sentences written in lowercase)",
  },
  {
    class: "lowercase sentence start",
    language: "en",
    text: "Use e.g. the staging key for this. The service reads approx. the last hour of logs.",
    claims: ["Use e.g. the staging key for this.", "The service reads approx. the last hour of logs."],
    from: "pySBD Golden Rules (abbreviations before lowercase words stay inside the sentence)",
  },
  {
    class: "lowercase sentence start",
    language: "de",
    text: "Das Hotel liegt direkt am Bahnhof. die Zimmer sind ruhig und sauber.",
    claims: ["Das Hotel liegt direkt am Bahnhof.", "die Zimmer sind ruhig und sauber."],
    from: "UD German-GSD, reviews (a sentence written in lowercase)",
  },
  {
    class: "lowercase sentence start",
    language: "de",
    text: "Die Messe findet am 3. und 4. Mai statt.",
    claims: ["Die Messe findet am 3. und 4. Mai statt."],
    from: "Wikipedia (de), date ranges (an ordinal before a lowercase word stays inside the sentence)",
  },
  {
    class: "a.m./p.m. before a title",
    language: "en",
    text: "We restarted the server at 10 a.m. Mr. Smith confirmed the fix an hour later.",
    claims: ["We restarted the server at 10 a.m.", "Mr. Smith confirmed the fix an hour later."],
    from: "pySBD Golden Rules (a.m./p.m. before a title)",
  },
  {
    class: "a.m./p.m. before a title",
    language: "en",
    text: "The backup finished at 9 p.m. Dr. Jones checked the restore the next morning.",
    claims: ["The backup finished at 9 p.m.", "Dr. Jones checked the restore the next morning."],
    from: "pySBD Golden Rules (a.m./p.m. before a title)",
  },
  {
    class: "missing abbreviation",
    language: "en",
    text: "Sen. Kennedy voted for the bill. Drs. Ali and Khan reviewed the study.",
    claims: ["Sen. Kennedy voted for the bill.", "Drs. Ali and Khan reviewed the study."],
    from: "UD English-EWT, news and reviews (titles before names)",
  },
  {
    class: "missing abbreviation",
    language: "en",
    text: "Henry III. Plantagenet ruled England for 56 years.",
    claims: ["Henry III. Plantagenet ruled England for 56 years."],
    from: "Wikipedia, 'Henry III of England' (length of the reign)",
  },
  {
    class: "missing abbreviation",
    language: "en",
    text: "PS. The staging server is back up.",
    claims: ["PS. The staging server is back up."],
    from: "UD English-EWT, reviews (a postscript)",
  },
  {
    class: "missing abbreviation",
    language: "de",
    text: "Heinrich VIII. Tudor heiratete sechsmal. Wilhelm II. Er dankte 1918 ab.",
    claims: ["Heinrich VIII. Tudor heiratete sechsmal.", "Wilhelm II.", "Er dankte 1918 ab."],
    from: "Wikipedia (de), 'Heinrich VIII. (England)' and 'Wilhelm II. (Deutsches Reich)'",
  },
  {
    class: "initial before a surname",
    language: "en",
    text: "The cantata was written by Johann S. Bach in Leipzig.",
    claims: ["The cantata was written by Johann S. Bach in Leipzig."],
    from: "Wikipedia, 'Johann Sebastian Bach' (Leipzig years)",
  },
  {
    class: "initial before a surname",
    language: "de",
    text: "Die Kantate schrieb Johann S. Bach in Leipzig.",
    claims: ["Die Kantate schrieb Johann S. Bach in Leipzig."],
    from: "Wikipedia (de), 'Johann Sebastian Bach' (Leipziger Jahre)",
  },
  {
    class: "! or ? inside a sentence",
    language: "en",
    text: "The login page of Yahoo! Mail now loads faster.",
    claims: ["The login page of Yahoo! Mail now loads faster."],
    from: "Wikipedia, 'Yahoo! Mail' (a name with an exclamation mark)",
  },
  {
    class: "! or ? inside a sentence",
    language: "en",
    text: "The build failed! Nobody noticed it for a day.",
    claims: ["The build failed!", "Nobody noticed it for a day."],
    from: "UD English-EWT, answers (an exclamation that ends its sentence)",
  },
  {
    class: "! or ? inside a sentence",
    language: "de",
    text: "Die Sendung Jeopardy! Deutschland lief bei RTL.",
    claims: ["Die Sendung Jeopardy! Deutschland lief bei RTL."],
    from: "Wikipedia (de), 'Jeopardy!' (deutsche Ausgabe)",
  },
  {
    class: "quoted sentence inside a sentence",
    language: "en",
    text: 'The log said "Build finished. No errors." and the job ended.',
    claims: ['The log said "Build finished. No errors." and the job ended.'],
    from: "UD English-EWT, news (a quoted statement inside a sentence)",
  },
  {
    class: "quoted sentence inside a sentence",
    language: "en",
    text: 'The dialog "Are you sure? This cannot be undone." appears before each deletion.',
    claims: ['The dialog "Are you sure? This cannot be undone." appears before each deletion.'],
    from: "pySBD Golden Rules (quotation inside a sentence)",
  },
  {
    class: "quoted sentence inside a sentence",
    language: "de",
    text: "„Das ist erledigt. Alles läuft.“ sagte der Betreuer am Telefon.",
    claims: ["„Das ist erledigt. Alles läuft.“ sagte der Betreuer am Telefon."],
    from: "UD German-GSD, news (a quoted statement before its speaker)",
  },
  {
    class: "German hard wrap before a noun",
    language: "de",
    text: "Der Server liest beim Start seine\nKonfiguration aus der Datei.",
    claims: ["Der Server liest beim Start seine Konfiguration aus der Datei."],
    from: "UD German-GSD, wiki (a sentence wrapped before a noun)",
  },
  {
    class: "German hard wrap before a noun",
    language: "de",
    text: "Die Bibliothek prüft jede neue\nVersion vor dem Release.\nDer Build läuft danach durch.",
    claims: ["Die Bibliothek prüft jede neue Version vor dem Release.", "Der Build läuft danach durch."],
    from: "UD German-GSD, wiki (a wrap after an adjective)",
  },
  {
    class: "German hard wrap before a noun",
    language: "en",
    text: "Fixed the parser\nAdded tests for it.",
    claims: ["Fixed the parser", "Added tests for it."],
    from: "agent replies: English lines without full stops stay apart",
  },
  {
    class: "German ordinal before a noun",
    language: "de",
    text: "Die Reden fielen auf der 35. Kommandeurstagung in München. Auf Seite 12. Dort steht der Rest.",
    claims: ["Die Reden fielen auf der 35. Kommandeurstagung in München.", "Auf Seite 12.", "Dort steht der Rest."],
    from: "UD German-GSD, news (an ordinal after an article)",
  },
  {
    class: "a contraction before the full stop",
    language: "en",
    text: "The first fix didn't work. The second one did.",
    claims: ["The first fix didn't work.", "The second one did."],
    from: "UD English-EWT, news and answers (a word with an apostrophe ends the sentence)",
  },
  {
    class: "a contraction before the full stop",
    language: "de",
    text: "Mit dem neuen Treiber geht's. Der alte stürzte beim Start ab.",
    claims: ["Mit dem neuen Treiber geht's.", "Der alte stürzte beim Start ab."],
    from: "UD German-GSD, reviews (an elided pronoun before the full stop)",
  },
]
