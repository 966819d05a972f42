import { linkEmbed } from './embed';

describe('linkEmbed', () => {
  it('shows where an http or https URL leads: host and path, the host as the site', () => {
    expect(linkEmbed('https://github.com/GitbookIO/gitbook')).toEqual({
      type: 'link',
      title: 'github.com/GitbookIO/gitbook',
      site: 'github.com',
    });
    expect(linkEmbed('http://www.example.com/docs/?a=1#top')).toEqual({
      type: 'link',
      title: 'example.com/docs',
      site: 'example.com',
    });
    expect(linkEmbed('https://example.com')).toMatchObject({ title: 'example.com' });
    expect(linkEmbed('https://example.com/caf%C3%A9/%E0%A4')).toMatchObject({
      title: 'example.com/caf%C3%A9/%E0%A4',
    });
    expect(linkEmbed('https://example.com/caf%C3%A9')).toMatchObject({ title: 'example.com/café' });
  });

  it('has no card for what is not an http or https URL', () => {
    for (const url of ['', 'github.com/x', 'javascript:alert(1)', 'file:///etc/passwd', 'ftp://example.com/'])
      expect(linkEmbed(url)).toBeUndefined();
  });
});
