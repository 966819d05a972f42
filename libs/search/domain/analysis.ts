/**
 * Text analysis: a text's words as index terms. Pages and queries go through the same steps, so a
 * query term finds a page when both reduce to the same string.
 */
import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as hindi } from '@orama/stemmers/indian';
import { stemmer as indonesian } from '@orama/stemmers/indonesian';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as lithuanian } from '@orama/stemmers/lithuanian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { stemmer as ukrainian } from '@orama/stemmers/ukrainian';
import { STOP_WORDS } from './stop-words';

/** GitBook's default space language: what a space without one is written in. */
export const DEFAULT_LANGUAGE = 'en';

/**
 * Snowball-style stemmers by GitBook language code (`TranslationLanguage`), without the region. Not
 * Bulgarian: its stemmer throws on common plurals (it writes into a string, as the Java it comes from).
 */
const STEMMERS: Readonly<Record<string, (word: string) => string>> = {
  ar: arabic,
  da: danish,
  de: german,
  el: greek,
  en: english,
  es: spanish,
  fi: finnish,
  fr: french,
  hi: hindi,
  hu: hungarian,
  id: indonesian,
  it: italian,
  lt: lithuanian,
  nl: dutch,
  no: norwegian,
  pt: portuguese,
  ro: romanian,
  ru: russian,
  sv: swedish,
  tr: turkish,
  uk: ukrainian,
};

/** Longer "words" are hashes, base64 and the like: not worth a posting each. */
const MAX_TERM_LENGTH = 64;

/** A word: letters, digits and the marks that belong to them (Devanagari vowel signs, for one). */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const NOT_WORD = /[^\p{L}\p{N}\p{M}]+/u;
/**
 * Scripts written without spaces between words: indexed as overlapping character pairs (as Lucene's CJK
 * analyzer). By script extensions, so that the signs they share (the long vowel mark ー) belong to them.
 */
const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
/** What belongs to the character before it: combining marks, and half-width kana's voiced marks (ﾞ ﾟ). */
const MARK = /[\p{M}\uFF9E\uFF9F]/u;
/** Only Latin and Greek marks are diacritics to fold: elsewhere (Cyrillic й, Indic vowel signs) they are letters. */
const FOLDABLE = /([\p{Script=Latin}\p{Script=Greek}])\p{M}+/gu;
/** Latin letters that Unicode does not decompose into a base letter and a mark. */
const LIGATURES: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ł: 'l',
  ı: 'i',
  þ: 'th',
};
const LIGATURE = new RegExp(`[${Object.keys(LIGATURES).join('')}]`, 'gu');

/** A term and where it is in the text it was read from (UTF-16 offsets, `end` exclusive). */
export interface Token {
  term: string;
  start: number;
  end: number;
}

interface Analyzer {
  stopWords: ReadonlySet<string>;
  stem: (word: string) => string;
  /** A word's terms, by the word as written: documentation repeats its words, and stemming is the cost. */
  known: Map<string, readonly string[]>;
}

/** Words remembered per language before the memory starts over: far above a space's vocabulary. */
const KNOWN_WORDS = 100_000;
const ANALYZERS = new Map<string, Analyzer>();

const NONE: ReadonlySet<string> = new Set();
const identity = (word: string) => word;

/** `pt-BR` reads as `pt`; an unknown language gets no stemming and no stop words. */
function analyzer(language: string | undefined): Analyzer {
  const code = (language ?? DEFAULT_LANGUAGE).toLowerCase().split(/[-_]/)[0];
  let found = ANALYZERS.get(code);
  if (!found) {
    const stemmer = STEMMERS[code];
    found = {
      stopWords: STOP_WORDS[code] ?? NONE,
      stem: stemmer ? safely(stemmer) : identity,
      known: new Map(),
    };
    ANALYZERS.set(code, found);
  }
  return found;
}

/** The terms of a word without CJK (folding may split it), stop words out, stemmed. */
function wordTerms(analyzer: Analyzer, text: string): readonly string[] {
  const known = analyzer.known.get(text);
  if (known) return known;
  const out: string[] = [];
  for (const word of fold(text).split(NOT_WORD)) {
    if (!word || word.length > MAX_TERM_LENGTH || analyzer.stopWords.has(word)) continue;
    out.push(analyzer.stem(word));
  }
  if (analyzer.known.size >= KNOWN_WORDS) analyzer.known.clear();
  analyzer.known.set(text, out);
  return out;
}

/** A stemmer that fails or stems a word to nothing leaves it whole: no word may stop a page's indexing. */
const safely = (stemmer: (word: string) => string) => (word: string) => {
  try {
    return stemmer(word) || word;
  } catch {
    return word;
  }
};

/** Lowercase, compatibility forms unfolded (ligatures, full-width letters), diacritics off. */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(FOLDABLE, '$1')
    .replace(LIGATURE, (letter) => LIGATURES[letter])
    .normalize('NFC');
}

/**
 * The terms of a text with their places: words lowercased and folded, split on anything but letters
 * and digits, stop words out, stemmed for the language. Folding comes before stemming so that a query
 * typed without accents finds the accented words.
 */
export function tokens(text: string, language?: string): Token[] {
  const out: Token[] = [];
  scanTerms(text, language, (term, start, end) => {
    out.push({ term, start, end });
  });
  return out;
}

/**
 * The terms of `text` (as `tokens` reads them) handed to `visit` one at a time with their span, until it
 * answers true: a reader that has what it needs stops there, and one that wants few terms makes no
 * token of the others.
 */
export function scanTerms(
  text: string,
  language: string | undefined,
  visit: (term: string, start: number, end: number) => boolean | undefined,
): void {
  const words = analyzer(language);
  // A regular expression of its own: its position is the scan's.
  const pattern = new RegExp(WORD);
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const word = match[0];
    // Most words are ASCII: one run, no CJK, nothing to split by script.
    if (isAscii(word)) {
      const end = match.index + word.length;
      for (const term of wordTerms(words, word)) if (visit(term, match.index, end)) return;
      continue;
    }
    for (const run of scriptRuns(word, match.index)) {
      if (run.cjk) {
        for (const pair of bigrams(run.units)) if (visit(pair.term, pair.start, pair.end)) return;
        continue;
      }
      const end = run.start + run.text.length;
      // Folding may unfold a symbol into several words (½ is 1⁄2): each keeps the span of the whole.
      for (const term of wordTerms(words, run.text)) if (visit(term, run.start, end)) return;
    }
  }
}

/** Whether a word (letters, digits, marks) is ASCII only, so letters and digits only. */
function isAscii(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The terms of a text, in order (repeats kept: they are term frequencies). */
export function terms(text: string, language?: string): string[] {
  return tokens(text, language).map((token) => token.term);
}

interface Run {
  cjk: boolean;
  text: string;
  start: number;
  units: Token[];
}

/** A word split where it changes between CJK and other scripts (`iPhone用户` is `iPhone` and `用户`). */
function scriptRuns(word: string, offset: number): Run[] {
  const runs: Run[] = [];
  let at = offset;
  for (const char of word) {
    const last = runs[runs.length - 1];
    // A mark stays with the letter before it, whatever its script says (Inherited).
    const cjk = last && MARK.test(char) ? last.cjk : CJK.test(char);
    const run = last && last.cjk === cjk ? last : { cjk, text: '', start: at, units: [] };
    if (run !== last) runs.push(run);
    if (cjk) {
      if (MARK.test(char) && run.units.length) {
        const unit = run.units[run.units.length - 1];
        unit.term += char;
        unit.end += char.length;
      } else run.units.push({ term: char, start: at, end: at + char.length });
    }
    run.text += char;
    at += char.length;
  }
  return runs;
}

/** Overlapping pairs of characters; a lone character is its own term. */
function bigrams(units: Token[]): Token[] {
  const folded = units.map((unit) => ({ ...unit, term: fold(unit.term) }));
  if (folded.length === 1) return folded;
  return folded.slice(1).map((unit, i) => ({
    term: folded[i].term + unit.term,
    start: folded[i].start,
    end: unit.end,
  }));
}

/** A part of a query between double quotes, straight or curly; one left open runs to the end. */
const QUOTED = /["“”„]([^"“”„]*)(?:["“”„]|$)/gu;

/**
 * The terms of each phrase quoted in a query (`"access token"`), in order: what a page must hold one
 * after the other. A quote holding only stop words or nothing asks for nothing.
 */
export function quotedPhrases(text: string, language?: string): string[][] {
  const out: string[][] = [];
  for (const match of text.matchAll(QUOTED)) {
    const found = terms(match[1], language);
    if (found.length) out.push(found);
  }
  return out;
}
