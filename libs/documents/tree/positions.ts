/**
 * Positions of pages among their siblings, as strings that sort in page order (fractional indexing).
 * Inserting or moving a page gives it a key between its new neighbours and changes no other page, so
 * two sides that insert pages under one parent do not touch each other's pages, and a merge keeps both.
 *
 * A key is an integer part, whose first character says its length (`a0`…`az` are 62 integers of two
 * characters, `b00`… of three, `Z`… and below are negative), then an optional fraction with no trailing
 * `0`. Appending or prepending increments the integer, so a thousand appends give keys of 3 characters;
 * inserting between two keys takes the midpoint of their fractions.
 */
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ZERO = DIGITS[0];
const LAST = DIGITS[DIGITS.length - 1];
const SMALLEST = `A${ZERO.repeat(26)}`;

function integerLength(head: string): number {
  if (head >= 'a' && head <= 'z') return head.charCodeAt(0) - 'a'.charCodeAt(0) + 2;
  if (head >= 'A' && head <= 'Z') return 'Z'.charCodeAt(0) - head.charCodeAt(0) + 2;
  throw new Error(`invalid position key ${JSON.stringify(head)}`);
}

function integerPart(key: string): string {
  const length = integerLength(key[0] ?? '');
  if (length > key.length) throw new Error(`invalid position key ${JSON.stringify(key)}`);
  return key.slice(0, length);
}

export function isPositionKey(key: string): boolean {
  try {
    const integer = integerPart(key);
    const fraction = key.slice(integer.length);
    return key !== SMALLEST && !fraction.endsWith(ZERO) && [...key.slice(1)].every((c) => DIGITS.includes(c));
  } catch {
    return false;
  }
}

/** A fraction strictly between `a` and `b` (digit strings without trailing zeros; `b` null is one). */
function midpoint(a: string, b: string | null): string {
  if (b !== null) {
    let n = 0;
    while ((a[n] ?? ZERO) === b[n]) n++;
    if (n > 0) return b.slice(0, n) + midpoint(a.slice(n), b.slice(n));
  }
  const da = a ? DIGITS.indexOf(a[0]) : 0;
  const db = b !== null ? DIGITS.indexOf(b[0]) : DIGITS.length;
  if (db - da > 1) return DIGITS[Math.round((da + db) / 2)];
  if (b !== null && b.length > 1) return b.slice(0, 1);
  return DIGITS[da] + midpoint(a.slice(1), null);
}

function incrementInteger(x: string): string | null {
  const head = x[0];
  const digits = [...x.slice(1)];
  for (let i = digits.length - 1; i >= 0; i--) {
    const d = DIGITS.indexOf(digits[i]) + 1;
    if (d < DIGITS.length) {
      digits[i] = DIGITS[d];
      return head + digits.join('');
    }
    digits[i] = ZERO;
  }
  if (head === 'Z') return `a${ZERO}`;
  if (head === 'z') return null;
  const next = String.fromCharCode(head.charCodeAt(0) + 1);
  if (next > 'a') digits.push(ZERO);
  else digits.pop();
  return next + digits.join('');
}

function decrementInteger(x: string): string | null {
  const head = x[0];
  const digits = [...x.slice(1)];
  for (let i = digits.length - 1; i >= 0; i--) {
    const d = DIGITS.indexOf(digits[i]) - 1;
    if (d >= 0) {
      digits[i] = DIGITS[d];
      return head + digits.join('');
    }
    digits[i] = LAST;
  }
  if (head === 'a') return `Z${LAST}`;
  if (head === 'A') return null;
  const previous = String.fromCharCode(head.charCodeAt(0) - 1);
  if (previous < 'Z') digits.push(LAST);
  else digits.pop();
  return previous + digits.join('');
}

/** A key strictly between `a` and `b`; null stands for the start (for `a`) or the end (for `b`). */
export function positionBetween(a: string | null, b: string | null): string {
  for (const key of [a, b]) {
    if (key !== null && !isPositionKey(key)) throw new Error(`invalid position key ${JSON.stringify(key)}`);
  }
  if (a !== null && b !== null && a >= b) throw new Error(`position ${a} is not before ${b}`);
  if (a === null) {
    if (b === null) return `a${ZERO}`;
    const ib = integerPart(b);
    if (ib === SMALLEST) return ib + midpoint('', b.slice(ib.length));
    if (ib < b) return ib;
    const below = decrementInteger(ib);
    if (below === null) throw new Error('no position before the smallest one');
    return below;
  }
  const ia = integerPart(a);
  const fa = a.slice(ia.length);
  if (b === null) return incrementInteger(ia) ?? ia + midpoint(fa, null);
  const ib = integerPart(b);
  if (ia === ib) return ia + midpoint(fa, b.slice(ib.length));
  const next = incrementInteger(ia);
  if (next !== null && next < b) return next;
  return ia + midpoint(fa, null);
}
