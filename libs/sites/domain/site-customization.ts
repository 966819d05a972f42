/**
 * A site's customization: GitBook's `SiteCustomizationSettings` (branding, styling, header and footer,
 * AI, page actions, …), replaced whole by each update; its shape is checked against GitBook's schema
 * where the request arrives (http/), so here it is plain JSON.
 */
export type SiteCustomization = { [setting: string]: unknown };

const same = (light: string) => ({ light, dark: light });

/**
 * What a site's customization is until it is set: values of GitBook's enumerations and GitBook's own
 * colors, and GitBook's stated defaults where its document gives one (`insights.trackingCookie`).
 */
export const DEFAULT_CUSTOMIZATION: SiteCustomization = {
  styling: {
    theme: 'clean',
    primaryColor: same('#346DDB'),
    infoColor: same('#787878'),
    successColor: same('#00C950'),
    warningColor: same('#FE9A00'),
    dangerColor: same('#FB2C36'),
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    codeTheme: {
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    },
    background: 'plain',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'system', toggeable: true },
  feedback: { enabled: false },
  ai: { mode: 'search' },
  advancedCustomization: { enabled: false },
  trademark: { enabled: true },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  pageActions: { items: ['markdown', 'external-ai', 'pdf'] },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true },
};
