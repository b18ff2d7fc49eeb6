import { expect, it } from 'vitest';
import { loginViaUi, screenshot, visible } from './support/browser';
import { publishViaApi } from './support/posts';
import { describeE2e } from './support/suite';

// Friday 20 June 2031, 19:30 in São Paulo (UTC-3) = 22:30 UTC.
const EVENT_DATE = '2031-06-20T22:30:00.000Z';
const HOSTILE =
  'Regulamento em https://campus.test/regras?x=1. ' +
  '<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"> ' +
  'javascript:window.__pwned=3';

describeE2e('cartões do feed', ({ baseUrl, browser, register, signIn }) => {
  it('relative times under a fixed clock, event dates in both zones, links that run no HTML', async () => {
    const author = await register('cartao');
    const title = `Regras ${author.nickname}`;
    const eventTitle = `Final ${author.nickname}`;
    const [post] = await publishViaApi(
      baseUrl,
      author,
      { title, content: HOSTILE, type: 'GENERAL' },
      { title: eventTitle, type: 'EVENT', eventDate: EVENT_DATE, location: 'Ginásio' },
    );

    // A laptop set to UTC whose clock reads 5 minutes (and a few seconds) after the post.
    const context = await browser().newContext({
      baseURL: baseUrl,
      locale: 'pt-BR',
      timezoneId: 'UTC',
      viewport: { width: 1280, height: 900 },
    });
    await context.clock.setFixedTime(new Date(Date.parse(post!.createdAt) + 5 * 60_000 + 7_000));
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await loginViaUi(page, author.email, author.senha);

    const card = page.locator('article.post-item').filter({ hasText: title });
    await visible(card);
    const time = card.locator('time.reltime');
    expect(await time.getAttribute('dateTime')).toBe(post!.createdAt);
    expect(await time.evaluate((el) => el.firstChild?.textContent)).toBe('há 5 minutos');
    const full = new Intl.DateTimeFormat('pt-BR', {
      dateStyle: 'full',
      timeStyle: 'short',
      timeZone: 'UTC',
    }).format(new Date(post!.createdAt));
    expect(await time.getAttribute('title')).toBe(full);
    // On keyboard focus the full date shows beside the relative one.
    await time.focus();
    const after = await time.evaluate((el) => getComputedStyle(el, '::after').content);
    expect(after).toContain(full);

    // The event: weekday and São Paulo time, then the reader's own (UTC), both labelled.
    const eventCard = page.locator('article.post-item').filter({ hasText: eventTitle });
    expect(await eventCard.locator('.event-line time').first().textContent()).toBe(
      'sex., 20/06/2031, 19:30 (horário de Brasília) · 22:30 no seu fuso (UTC)',
    );

    // The text: one link (http/https only), the markup shown as text and never run.
    const links = card.locator('.content a');
    expect(await links.count()).toBe(1);
    expect(await links.first().getAttribute('href')).toBe('https://campus.test/regras?x=1');
    expect(await links.first().textContent()).toBe('https://campus.test/regras?x=1');
    expect(await card.locator('.content script, .content img').count()).toBe(0);
    expect(await card.locator('.content').textContent()).toContain('<script>window.__pwned = 1');
    await card.getByRole('link', { name: title }).click();
    await visible(page.getByRole('heading', { name: title, level: 1 }));
    await visible(page.locator('article .content a', { hasText: 'https://campus.test/regras' }));
    expect(await page.locator('article .content img, article .content script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await screenshot(page, 'feed-cartoes-utc');
    await context.close();

    // In São Paulo's own zone the event date has one time only.
    const local = await signIn(author);
    const localEvent = local.page.locator('article.post-item').filter({ hasText: eventTitle });
    await visible(localEvent);
    expect(await localEvent.locator('.event-line time').first().textContent()).toBe(
      'sex., 20/06/2031, 19:30 (horário de Brasília)',
    );
    await local.context.close();
  });
});
