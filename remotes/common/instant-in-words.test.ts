import { browserLanguage } from '../../testing/host/browser-language';
import { instantInWords as hostInstantInWords } from '../../host/text/instant-in-words';
import { instantInWords } from './instant-in-words';

const AT = Date.UTC(2026, 10, 29, 20, 31, 53);

describe("the built-in remotes' instantInWords in a browser set to German", () => {
  browserLanguage('de-DE');

  it('writes an instant in English in the zone it is read in, saying which', () => {
    expect(instantInWords(AT, 'Europe/Berlin')).toBe('29 Nov 2026, 21:31 GMT+1');
    expect(instantInWords(AT, 'Asia/Kolkata')).toBe('30 Nov 2026, 02:01 GMT+5:30');
  });

  it('writes it as the host’s pages do', () => {
    expect(instantInWords(AT)).toBe(hostInstantInWords(AT));
  });
});
