import { isEmoji } from './emoji';

describe('isEmoji', () => {
  it('takes one emoji, its code points in lowercase hexadecimal, or nothing', () => {
    for (const emoji of [
      '🎉',
      '👍🏽',
      '#️⃣',
      '🇫🇷',
      '👨‍👩‍👧',
      '🏴󠁧󠁢󠁳󠁣󠁴󠁿',
      '❤️',
      '1f389',
      '1f468-200d-1f469',
      '2764',
      '',
    ]) {
      expect({ emoji, ok: isEmoji(emoji) }).toEqual({ emoji, ok: true });
    }
    for (const emoji of [
      'book',
      ':book:',
      '1',
      '#',
      '🎉🎉',
      '🎉 ',
      '🇫',
      '☺︎',
      '1F389',
      '31',
      'd800',
      '110000',
      '1f389-',
    ]) {
      expect({ emoji, ok: isEmoji(emoji) }).toEqual({ emoji, ok: false });
    }
  });
});
