/**
 * Node's default language is the machine's (English in CI), so code that takes the browser's language by giving none
 * passes every test. For the suite that calls it, a browser set to `locale` (`de-DE`, `ar-EG`): `Intl.DateTimeFormat`
 * and `Date`'s `toLocale…String` given no language use that one, as such a browser's do.
 */
export function browserLanguage(locale: string): void {
  const RealDateTimeFormat = Intl.DateTimeFormat;
  const date = Date.prototype;
  const real = {
    toLocaleString: date.toLocaleString,
    toLocaleDateString: date.toLocaleDateString,
    toLocaleTimeString: date.toLocaleTimeString,
  };
  const spies: jest.SpyInstance[] = [];
  beforeAll(() => {
    spies.push(
      jest
        .spyOn(Intl, 'DateTimeFormat')
        .mockImplementation(
          (locales?: Intl.LocalesArgument, options?: Intl.DateTimeFormatOptions) =>
            new RealDateTimeFormat(locales ?? locale, options),
        ),
    );
    for (const name of Object.keys(real) as (keyof typeof real)[]) {
      spies.push(
        jest.spyOn(date, name).mockImplementation(function (
          this: Date,
          locales?: Intl.LocalesArgument,
          options?: Intl.DateTimeFormatOptions,
        ) {
          return real[name].call(this, locales ?? locale, options);
        }),
      );
    }
  });
  afterAll(() => {
    for (const spy of spies.splice(0)) spy.mockRestore();
  });
}
