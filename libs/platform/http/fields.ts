import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { isEmoji } from '../domain/emoji';
import { DEFAULT_LEVELS } from '../domain/roles';
import { describedRule } from '../openapi/described-rule';

/** A default level: a role, `inherit`, or null for guests. */
export function IsDefaultLevel(): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsIn([...DEFAULT_LEVELS], {
      message: `${String(key)} must be one of ${DEFAULT_LEVELS.join(', ')} or null`,
    })(target, key);
  };
}

/** A boolean query parameter: only `true` and `false` are accepted. */
export function BooleanQuery(): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))(target, key);
    IsOptional()(target, key);
    IsBoolean({ message: `${String(key)} must be true or false` })(target, key);
  };
}

/**
 * A query parameter that takes a list, as GitBook's client sends an array: the key once per value
 * (`status=open&status=draft`), or once for a list of one. It is the exception, declared here on the
 * DTO's field: a repeated key is otherwise refused by the parameter's own rule (two values are an
 * array, which is no string, number, flag or value of an enumeration). Each value must be one of
 * `values`; the field holds a list whichever way it came.
 */
export function QueryList(values: readonly string[], maxItems = 100): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }) => (typeof value === 'string' ? [value] : value))(target, key);
    IsArray()(target, key);
    ArrayMaxSize(maxItems)(target, key);
    IsIn(values, {
      each: true,
      message: `each value of ${String(key)} must be one of ${values.join(', ')}`,
    })(target, key);
  };
}

/**
 * The explicit bidirectional formatting characters (embeddings, overrides, isolates and their ends):
 * in a title or name they reorder what follows as displayed ("Invoice\u202Efdp.exe" shows "Invoiceexe.pdf")
 * and leak into the text around it. Right-to-left text needs none of them; the marks (U+200E, U+200F) stay.
 */
const BIDI_CONTROLS = '\\u202A-\\u202E\\u2066-\\u2069';

/** What `@Text` accepts, as JSON Schema patterns for the API reference (the check is `hasControlCharacter`). */
export const CONTROL_FREE = `^[^\\u0000-\\u0008\\u000A-\\u001F${BIDI_CONTROLS}]*$`;
export const CONTROL_FREE_LINES = `^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F${BIDI_CONTROLS}]*$`;

const isBidiControl = (code: number) =>
  (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);

/**
 * Whether `text` holds a C0 control character other than tab (and, with `lineBreaks`, LF and CR) or a
 * bidirectional formatting character.
 */
export function hasControlCharacter(text: string, lineBreaks = false): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 ? !isBidiControl(code) : code === 0x09) continue;
    if (lineBreaks && (code === 0x0a || code === 0x0d)) continue;
    return true;
  }
  return false;
}

/**
 * A text field of at most `maxLength` characters without control characters: a NUL, an escape, a line
 * break or a bidirectional override in a title, name or label is never meant, and breaks (or disguises)
 * what displays or stores it. Tab is allowed; `lines` allows line breaks too (a description).
 */
export function Text(maxLength: number, options: { lines?: boolean } = {}): PropertyDecorator {
  const allowed = options.lines ? 'tab and line breaks' : 'tab';
  return (target, key) => {
    IsString()(target, key);
    MaxLength(maxLength)(target, key);
    ValidateBy({
      name: 'noControlCharacters',
      constraints: [options.lines === true],
      validator: {
        validate: (value) => typeof value !== 'string' || !hasControlCharacter(value, options.lines),
        defaultMessage: () =>
          `${String(key)} must not contain control characters other than ${allowed}, nor bidirectional overrides`,
      },
    })(target, key);
  };
}

/**
 * An emoji as GitBook's `emoji` format has it: one emoji ("📘", "👨‍👩‍👧"), or its code points in lowercase
 * hexadecimal ("1f4d8"); "" for none. Words, shortcodes and several emoji are refused.
 */
export function Emoji(): PropertyDecorator {
  return (target, key) => {
    IsString()(target, key);
    MaxLength(50)(target, key);
    ValidateBy({
      name: 'isEmoji',
      validator: {
        validate: (value) => typeof value !== 'string' || isEmoji(value),
        defaultMessage: () =>
          `${String(key)} must be one emoji, or its code points in hexadecimal like 1f4d8, or empty`,
      },
    })(target, key);
  };
}

/**
 * A field of GitBook's request body for a feature this project does not have: declared so that a request
 * giving it (any value, null included) is refused with a 400 that names it and says why, rather than
 * answered as an unknown field. Absent, it changes nothing.
 */
export function NotServed(reason: string): PropertyDecorator {
  return (target, key) => {
    ValidateIf((_object, value) => value !== undefined)(target, key);
    ValidateBy({
      name: 'notServed',
      // The API reference shows it accepting no value, and why.
      constraints: [describedRule({ not: {}, description: `Refused: ${reason}.` })],
      validator: {
        validate: () => false,
        defaultMessage: () => `${String(key)} is not accepted: ${reason}`,
      },
    })(target, key);
  };
}
