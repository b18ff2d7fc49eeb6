import { expect, it } from 'vitest';
import { newPage } from './support/browser';
import { describeE2e } from './support/suite';

/** What Chromium itself says of the app as an installable one (issue: no icon, no manifest). */
describeE2e('installing the app', ({ baseUrl, browser }) => {
  it('Chromium reads the manifest, loads its icons and finds nothing that stops an install', async () => {
    const { context, page } = await newPage(browser(), baseUrl);
    await page.goto('/entrar');
    const cdp = await context.newCDPSession(page);
    const { url, errors, data } = (await cdp.send('Page.getAppManifest')) as {
      url: string;
      errors: { message: string }[];
      data?: string;
    };
    expect(url).toMatch(/\/manifest\.webmanifest$/);
    expect(errors).toEqual([]);
    const manifest = JSON.parse(data!) as { icons: { src: string }[]; theme_color: string };
    for (const icon of manifest.icons) {
      const response = await page.request.get(icon.src);
      expect(response.status(), icon.src).toBe(200);
    }
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    // A Playwright context is an incognito profile, where no app installs: that one is the test's.
    const appErrors = installabilityErrors.filter((e) => e.errorId !== 'in-incognito');
    expect(appErrors.map((e) => e.errorId)).toEqual([]);
    const favicon = await page.request.get('/icons/icon.svg');
    expect(favicon.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    await context.close();
  });
});
