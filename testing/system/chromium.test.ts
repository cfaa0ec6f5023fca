import { launchChromium, missingChromiumMessage } from './chromium';

describe('launchChromium', () => {
  const saved = process.env.CHROMIUM_PATH;
  afterEach(() => {
    if (saved === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = saved;
  });

  it('names the Debian package and the install command when Chromium is missing', async () => {
    process.env.CHROMIUM_PATH = '/nonexistent/chromium';
    await expect(launchChromium()).rejects.toThrow(missingChromiumMessage('/nonexistent/chromium'));
    expect(missingChromiumMessage('/x')).toMatch(/Debian package `chromium`.*`apt-get install -y chromium`/);
  });

  it('drives the installed Chromium', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.setContent('<main data-slot-location="header-banner">ready</main>');
      expect(await page.textContent('[data-slot-location="header-banner"]')).toBe('ready');
    } finally {
      await browser.close();
    }
  }, 30_000);
});
