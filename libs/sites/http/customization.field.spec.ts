import { DEFAULT_CUSTOMIZATION } from '../domain/site-customization';
import { customizationProblem } from './customization.field';

/** Each setting of a customization checked against GitBook's schema for it. */
const problems = (settings: Record<string, unknown>) =>
  Object.entries(settings)
    .map(([key, value]) => customizationProblem(key, value))
    .filter((problem) => problem !== null);

const styling = DEFAULT_CUSTOMIZATION.styling as Record<string, unknown>;

describe("a site's customization, by GitBook's schema", () => {
  it('takes the defaults, and GitBook forms of each kind', () => {
    expect(problems(DEFAULT_CUSTOMIZATION)).toEqual([]);
    expect(
      problems({
        title: 'Docs',
        localizedTitle: { fr: 'Documentation' },
        favicon: { emoji: '🎉' },
        styling: {
          ...styling,
          tint: { color: { light: '#fff', dark: '#000000' } },
          headingFont: null,
          font: {
            id: 'f1',
            custom: true,
            fontFamily: 'Brand',
            fontFaces: [
              { weight: 400, sources: [{ url: 'https://example.com/brand.woff2', format: 'woff2' }] },
            ],
          },
        },
        header: {
          preset: 'bold',
          logo: { light: 'https://example.com/l.png', dark: 'https://example.com/d.png' },
          links: [{ title: 'Home', to: { kind: 'url', url: 'https://example.com' }, links: [] }],
        },
        socialAccounts: [],
      }),
    ).toEqual([]);
  });

  it('names the path of what does not fit', () => {
    const cases: [string, unknown, RegExp][] = [
      [
        'styling',
        { ...styling, primaryColor: { light: 'red', dark: '#000' } },
        /^styling\.primaryColor\.light must match/,
      ],
      ['styling', { ...styling, theme: 'neon' }, /^styling\.theme must be one of/],
      ['styling', { ...styling, shadow: true }, /^styling\.shadow is not a known property/],
      ['styling', { ...styling, corners: undefined }, /^styling\.corners is required/],
      ['styling', { ...styling, font: 'Comic Sans' }, /^styling\.font must be one of/],
      [
        'styling',
        { ...styling, font: { id: 'f', custom: true, fontFamily: 'F', fontFaces: [] } },
        /fontFaces must have at least 1/,
      ],
      ['favicon', { emoji: 'x' }, /^favicon/],
      ['header', { preset: 'default', links: 'none' }, /^header\.links must be an array/],
      [
        'header',
        { preset: 'default', links: [{ title: 'T', to: { kind: 'url' }, links: [] }] },
        /^header\.links\[0\]\.to/,
      ],
      ['localizedTitle', { klingon: 'Qapla' }, /^localizedTitle\.klingon \(its name\)/],
      ['localizedTitle', { fr: 'x'.repeat(129) }, /^localizedTitle\.fr must be at most 128/],
      ['title', 'x', /^title must be at least 2/],
      ['insights', {}, /^insights\.trackingCookie is required/],
      ['insights', undefined, /^insights is required/],
      ['socialAccounts', 'none', /^socialAccounts must be an array/],
    ];
    for (const [key, value, named] of cases)
      expect({ key, value, problem: customizationProblem(key, value) }).toEqual({
        key,
        value,
        problem: expect.stringMatching(named),
      });
  });
});
