/** What is used of `@xmldom/xmldom`, typed here: its own types bring the DOM library into every file. */
interface XmlDom {
  DOMParser: new () => {
    parseFromString(
      xml: string,
      type: string,
    ): { documentElement: { getAttribute(name: string): string } | null };
  };
}

const { DOMParser } = require('@xmldom/xmldom') as XmlDom;

/**
 * The `Destination` of a SAML response (the XML the verifier accepted), or null when it has none: the
 * signature covers the assertion only, so this is read after verification and checked as a profile rule.
 */
export function responseDestination(xml: string): string | null {
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
  const destination = root?.getAttribute('Destination');
  return destination ? destination : null;
}
