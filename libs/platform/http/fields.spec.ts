import { BadRequestException } from '@nestjs/common';
import { hasControlCharacter, NotServed, QueryList, Text } from './fields';
import { createValidationPipe, IsAbsentOr } from './validation';

class TitleDto {
  @IsAbsentOr()
  @Text(20)
  title?: string;

  @IsAbsentOr()
  @Text(40, { lines: true })
  description?: string;
}

async function refusal(body: object): Promise<string | undefined> {
  try {
    await createValidationPipe().transform(body, { type: 'body', metatype: TitleDto });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return (error as BadRequestException).message;
  }
}

describe('Text fields', () => {
  it('finds C0 control characters but tab, and but line breaks when they are allowed', () => {
    for (let code = 0; code < 0x20; code++) {
      const text = `a${String.fromCharCode(code)}b`;
      expect(hasControlCharacter(text)).toBe(code !== 0x09);
      expect(hasControlCharacter(text, true)).toBe(![0x09, 0x0a, 0x0d].includes(code));
    }
    expect(hasControlCharacter('Ünïcödé — 漢字 😀 \u007f\u0085')).toBe(false);
  });

  it('refuses a title with a NUL, an escape or a line break with a 400 naming the field', async () => {
    for (const title of ['a\u0000b', '\u001b[31mred', 'two\nlines', 'cr\r']) {
      expect(await refusal({ title })).toMatch(
        /^title must not contain control characters other than tab, nor bidirectional overrides$/,
      );
    }
    expect(await refusal({ title: 'tab\tis fine' })).toBeUndefined();
  });

  it('refuses bidirectional embeddings, overrides and isolates, and keeps right-to-left text and its marks', async () => {
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) {
      const title = `Invoice${String.fromCharCode(code)}fdp.exe`;
      expect(hasControlCharacter(title)).toBe(true);
      expect(await refusal({ title })).toMatch(/^title must not contain control characters/);
      expect(await refusal({ description: title })).toMatch(/^description must not contain control/);
    }
    expect(await refusal({ title: 'שלום עולם \u200f(1)' })).toBeUndefined();
    expect(await refusal({ title: 'مرحبا \u200eABC' })).toBeUndefined();
  });

  it('refuses a lone surrogate anywhere in a body, naming where, and keeps whole pairs', async () => {
    expect(await refusal({ title: 'a\ud800b' })).toBe(
      'title: holds a lone UTF-16 surrogate, which is no character',
    );
    expect(await refusal({ title: '\udfff' })).toMatch(/^title: holds a lone UTF-16 surrogate/);
    expect(await refusal({ title: 'ok 😀' })).toBeUndefined();
    expect(await refusal({ 'k\ud800': 1 })).toMatch(/^body: a key holds a lone UTF-16 surrogate/);
  });

  it('allows line breaks in a multi-line text, and nothing else below space but tab', async () => {
    expect(await refusal({ description: 'one\r\ntwo\tthree' })).toBeUndefined();
    expect(await refusal({ description: 'bell\u0007' })).toMatch(/^description must not contain control/);
  });

  it('keeps the length and type checks', async () => {
    expect(await refusal({ title: 'x'.repeat(21) })).toMatch(/title must be shorter than or equal to 20/);
    expect(await refusal({ title: 5 })).toMatch(/title must be a string/);
  });
});

class ListQuery {
  @IsAbsentOr()
  @QueryList(['open', 'draft'])
  status?: string[];

  @IsAbsentOr()
  @Text(20)
  space?: string;
}

describe('Query lists', () => {
  const pipe = createValidationPipe();
  const parse = async (query: object) => {
    try {
      return await pipe.transform(query, { type: 'query', metatype: ListQuery });
    } catch (error) {
      expect(error).toBeInstanceOf(BadRequestException);
      return (error as BadRequestException).message;
    }
  };

  it('takes the key repeated (a list, as a query parser reads it) or once, as a list either way', async () => {
    expect(await parse({ status: ['open', 'draft'] })).toEqual({ status: ['open', 'draft'] });
    expect(await parse({ status: 'draft' })).toEqual({ status: ['draft'] });
    expect(await parse({})).toEqual({});
  });

  it('checks each value, naming the parameter', async () => {
    expect(await parse({ status: ['open', 'closed'] })).toBe(
      'each value of status must be one of open, draft',
    );
    expect(await parse({ status: '' })).toBe('each value of status must be one of open, draft');
  });

  it('leaves a repeated key refused for a parameter that is not a list', async () => {
    expect(await parse({ space: ['a', 'b'] })).toMatch(/^space must be a string/);
  });
});

class WithNotServed {
  @IsAbsentOr()
  @Text(20)
  title?: string;

  @NotServed('templates are not served')
  template?: unknown;
}

describe('Fields not served', () => {
  const pipe = createValidationPipe();
  const parse = async (body: object) => {
    try {
      return await pipe.transform(body, { type: 'body', metatype: WithNotServed });
    } catch (error) {
      expect(error).toBeInstanceOf(BadRequestException);
      return (error as BadRequestException).message;
    }
  };

  it('refuses any value, null included, naming the field and the reason', async () => {
    for (const template of [{ id: 'x' }, 'x', null, 0, false]) {
      expect(await parse({ title: 'a', template })).toBe(
        'template is not accepted: templates are not served',
      );
    }
  });

  it('lets a body without the field through', async () => {
    expect(await parse({ title: 'a' })).toEqual({ title: 'a' });
  });
});
