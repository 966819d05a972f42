import { pdfExportName } from './pdf-export';

const request = { space: 's1', revision: 'r1', title: 'Handbook' };

describe('pdfExportName', () => {
  it('names what is rendered: equal requests one name, any difference another', () => {
    const name = pdfExportName(request);
    expect(name).toMatch(/^pdf-[\w-]{22}$/);
    expect(pdfExportName({ ...request })).toBe(name);
    const others = [
      { ...request, revision: 'r2' },
      { ...request, title: 'Renamed' },
      { ...request, page: 'p1' },
      { ...request, page: 'p1', only: true },
    ].map(pdfExportName);
    expect(new Set([name, ...others]).size).toBe(5);
    // `only` means nothing without a page.
    expect(pdfExportName({ ...request, only: true })).toBe(name);
  });
});
