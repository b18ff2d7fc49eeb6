import { expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { describeE2e } from './support/suite';

// The watcher that checks every page of the other tests: it must still see a violation, and
// must not report one from a page that changed while axe was running.
describeE2e('verificação de acessibilidade', ({ baseUrl, browser }) => {
  /** A page of its own, not watched: its violations are this test's to read. */
  async function loginPage() {
    const context = await browser().newContext({ baseURL: baseUrl, locale: 'pt-BR' });
    const page = await context.newPage();
    await page.goto('/login');
    await page.locator('main h1').first().waitFor();
    return { context, page };
  }

  it('reports a violation on a page that stands still', async () => {
    const { context, page } = await loginPage();
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => {
      const image = document.createElement('img');
      image.src = '/icon.svg';
      document.querySelector('main')!.append(image);
    });
    const found = await axeViolations(page);
    expect(found.some((line) => line.startsWith('/login: image-alt'))).toBe(true);
    await context.close();
  });

  it('drops the results of a run the page changed under', async () => {
    const { context, page } = await loginPage();
    // An image without alt text stays, while a counter in the page changes every 2 ms: no run
    // sees the page stand still, so none is reported (it is not a state a person stops at).
    await page.evaluate(() => {
      const main = document.querySelector('main')!;
      const image = document.createElement('img');
      image.src = '/icon.svg';
      const counter = document.createElement('p');
      main.append(image, counter);
      let n = 0;
      setInterval(() => (counter.textContent = String(++n)), 2);
    });
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
