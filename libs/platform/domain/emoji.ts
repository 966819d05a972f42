/**
 * GitBook's `emoji` string format. Its `Emoji` schema says "Unicode codepoint or character of the emoji"
 * (example "🎉"), so a value is one of:
 * - the emoji itself: one emoji as UTS #51 defines a possible emoji (a single emoji, a keycap, a flag, a
 *   modifier or tag sequence, or ZWJ sequences of those), "🎉", "👍🏽", "#️⃣", "🇫🇷", "👨‍👩‍👧";
 * - its code points in lowercase hexadecimal joined by "-", as GitBook stores them, "1f389" or
 *   "1f468-200d-1f469", which must spell such an emoji;
 * - "": no emoji. GitBook's Space requires `emoji` and has no null, so a space without one carries "".
 * Anything else is not an emoji: words, digits, several emoji in a row, text presentation (U+FE0E).
 */

/**
 * One emoji and what may modify it. An ASCII digit, '#' or '*' is an emoji only as a keycap, and a
 * regional indicator only as half of a flag.
 */
const ELEMENT =
  '(?:\\p{Regional_Indicator}{2}' +
  '|[#*0-9]\\uFE0F?\\u20E3' +
  '|(?![#*0-9]|\\p{Regional_Indicator})\\p{Emoji}(?:\\p{Emoji_Modifier}|\\uFE0F\\u20E3?|[\\u{E0020}-\\u{E007E}]+\\u{E007F})?)';

/** UTS #51 `possible_emoji`: elements joined by zero-width joiners. */
const EMOJI = new RegExp(`^${ELEMENT}(?:\\u200D${ELEMENT})*$`, 'u');

const CODE_POINTS = /^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*$/;

/** The characters `hex` ("1f468-200d-1f469") names, or undefined when one is not a Unicode scalar value. */
function fromCodePoints(hex: string): string | undefined {
  const points = hex.split('-').map((part) => Number.parseInt(part, 16));
  if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return undefined;
  return String.fromCodePoint(...points);
}

/** Whether `value` is an emoji as GitBook's `emoji` format has it (above), or "" for none. */
export function isEmoji(value: string): boolean {
  if (value === '') return true;
  if (CODE_POINTS.test(value)) {
    const characters = fromCodePoints(value);
    return characters !== undefined && EMOJI.test(characters);
  }
  return EMOJI.test(value);
}
