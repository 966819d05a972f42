import { fold, quotedPhrases, terms, tokens } from './analysis';

describe('terms', () => {
  it('lowercases and splits on anything but letters and digits', () => {
    expect(terms('Node.js v2: API-Keys, OAuth2/SSO', 'xx')).toEqual([
      'node',
      'js',
      'v2',
      'api',
      'keys',
      'oauth2',
      'sso',
    ]);
  });

  it('reads words of any script, and folds diacritics, ligatures and full-width forms', () => {
    expect(terms('Crème BRÛLÉE straße Œuvre ﬁle ＡＢＣ１', 'xx')).toEqual([
      'creme',
      'brulee',
      'strasse',
      'oeuvre',
      'file',
      'abc1',
    ]);
    expect(terms('Ελληνικά Русский й עברית', 'xx')).toEqual(['ελληνικα', 'русский', 'й', 'עברית']);
  });

  it('keeps the marks that are letters (Devanagari vowel signs)', () => {
    expect(terms('हिन्दी भाषा', 'xx')).toEqual(['हिन्दी', 'भाषा']);
  });

  it('finds an accented word from a query typed without its accents', () => {
    expect(terms('Paramètres généraux', 'fr')).toEqual(terms('parametres generaux', 'fr'));
    expect(terms('Größe', 'de')).toEqual(terms('grosse', 'de'));
  });

  it('cuts CJK text, written without spaces, into overlapping pairs', () => {
    expect(terms('用户指南', 'zh')).toEqual(['用户', '户指', '指南']);
    expect(terms('iPhone用户 字', 'zh')).toEqual(['iphone', '用户', '字']);
    // Half-width katakana reads as full-width, a voiced mark stays on its letter.
    expect(terms('ｶﾞｲﾄﾞ', 'ja')).toEqual(terms('ガイド', 'ja'));
    expect(terms('データ', 'ja')).toEqual(['デー', 'ータ']);
  });

  it('leaves stop words of the language out', () => {
    expect(terms('The setup of a new space, and how to use it', 'en')).toEqual([
      'setup',
      'new',
      'space',
      'us',
    ]);
    expect(terms("L'installation de l'application et des données", 'fr')).toEqual(
      terms('installation application données', 'fr'),
    );
    expect(terms('Die Einrichtung der Seite', 'de')).toEqual(terms('Einrichtung Seite', 'de'));
    // Not in an unknown language, whose words these may be.
    expect(terms('the of', 'xx')).toEqual(['the', 'of']);
  });

  it('stems English: run, runs and running are one term', () => {
    expect(new Set(terms('run runs running', 'en'))).toEqual(new Set(['run']));
    expect(terms('Configuring configurations', 'en')).toEqual(['configur', 'configur']);
  });

  it('stems French: cheval and chevaux, développeur and développeurs', () => {
    expect(terms('cheval chevaux', 'fr')).toEqual(['cheval', 'cheval']);
    expect(terms('développeur', 'fr')).toEqual(terms('Développeurs', 'fr'));
    expect(terms('running', 'fr')).toEqual(['running']);
  });

  it('stems German and Spanish', () => {
    expect(terms('Häuser', 'de')).toEqual(terms('Haus', 'de'));
    expect(terms('corriendo', 'es')).toEqual(terms('correr', 'es'));
  });

  it('reads a regional code as its language, English when none, and no stemming when unknown', () => {
    expect(terms('configurações', 'pt-br')).toEqual(terms('configurações', 'pt'));
    expect(terms('running', 'EN-us')).toEqual(['run']);
    expect(terms('running')).toEqual(['run']);
    expect(terms('running', 'ja')).toEqual(['running']);
    // Bulgarian's stemmer throws on plurals like these: the language goes unstemmed.
    expect(terms('учебници степен', 'bg')).toEqual(['учебници', 'степен']);
  });

  it('leaves out "words" too long to be searched for (hashes, base64)', () => {
    expect(terms(`key ${'a1'.repeat(40)} end`, 'en')).toEqual(['kei', 'end']);
  });

  it('is empty for a text without words', () => {
    expect(terms('  — … !? ', 'en')).toEqual([]);
    expect(terms('', 'en')).toEqual([]);
  });
});

describe('tokens', () => {
  it('tells where each term is in the original text', () => {
    const text = 'Ça marche: Running fast';
    expect(tokens(text, 'en').map(({ term, start, end }) => [term, text.slice(start, end)])).toEqual([
      ['ca', 'Ça'],
      ['march', 'marche'],
      ['run', 'Running'],
      ['fast', 'fast'],
    ]);
  });

  it('places CJK pairs and astral characters by UTF-16 offsets', () => {
    const text = 'a 𠮷野家';
    expect(tokens(text, 'ja').map(({ term, start, end }) => [term, text.slice(start, end)])).toEqual([
      ['a', 'a'],
      ['𠮷野', '𠮷野'],
      ['野家', '野家'],
    ]);
  });
});

describe('fold', () => {
  it('is lowercase without diacritics', () => {
    expect(fold('ÀÉÎÕÜ Ññ Ç')).toBe('aeiou nn c');
  });
});

describe('quotedPhrases', () => {
  it('reads each quoted part of a query as its terms, straight or curly quotes, one left open to the end', () => {
    expect(quotedPhrases('deploy "the access tokens" now', 'en')).toEqual([['access', 'token']]);
    expect(quotedPhrases('“Rotating tokens” and "webhooks"', 'en')).toEqual([
      ['rotat', 'token'],
      ['webhook'],
    ]);
    expect(quotedPhrases('a "half open', 'en')).toEqual([['half', 'open']]);
    // Nothing quoted, or only stop words: no phrase.
    expect(quotedPhrases('access tokens', 'en')).toEqual([]);
    expect(quotedPhrases('"the" "" x', 'en')).toEqual([]);
  });
});
