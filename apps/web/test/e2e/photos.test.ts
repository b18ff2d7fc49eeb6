import { expect, it } from 'vitest';
import { apiCall, apiLogin, loginViaUi, newPage, visible } from './support/browser';
import { png } from './support/png';
import { openComposer } from './support/posts';
import { describeE2e } from './support/suite';

describeE2e('fotos', ({ baseUrl, browser, register, signIn }) => {
  it('publishes a post with two photos from the composer and sees them in the feed', async () => {
    const author = await register('fotos');
    const { page } = await signIn(author);
    const title = `Fotos do campus ${author.nickname}`;
    const composer = await openComposer(page);
    await composer.getByLabel('Título').fill(title);
    await composer.getByLabel('Adicionar fotos').setInputFiles([
      { name: 'patio.png', mimeType: 'image/png', buffer: png(120, [200, 80, 40]) },
      { name: 'lago.png', mimeType: 'image/png', buffer: png(90, [40, 120, 200]) },
    ]);
    await composer.getByLabel('Descrição da foto 1').fill('O pátio ao meio-dia');
    await composer.getByLabel('Descrição da foto 2').fill('O lago');
    await composer.getByRole('button', { name: 'Publicar' }).click();
    await visible(page.getByRole('status').filter({ hasText: `Publicado: “${title}”.` }));

    const card = page.locator('article.post-item', {
      has: page.getByRole('link', { name: title }),
    });
    const photos = card.locator('.post-photos img');
    await visible(photos.first());
    expect(await photos.count()).toBe(2);
    expect(await photos.nth(0).getAttribute('alt')).toBe('O pátio ao meio-dia');
    expect(await photos.nth(1).getAttribute('alt')).toBe('O lago');
    expect(await photos.nth(0).getAttribute('width')).toBe('120');
    expect(await photos.nth(0).getAttribute('srcset')).toMatch(/-t\.webp 120w, .*\.webp 120w$/);
    // The image really loads from the service (no token: an <img> sends none).
    await expect
      .poll(() =>
        photos.nth(1).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
  });

  it('on a phone, a card’s photo comes as its 800-px thumbnail, not the 1600-px image', async () => {
    const author = await register('fotofone');
    const { accessToken, usuario } = await apiLogin(baseUrl, author);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png(2000, [30, 140, 90]))]), 'quadra.png');
    const uploaded = await fetch(`${baseUrl}/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
      body: form,
    });
    const photo = (await uploaded.json()) as { id: string; thumbnailWidth: number; width: number };
    expect(photo).toMatchObject({ width: 1600, thumbnailWidth: 800 });
    const title = `A quadra nova ${author.nickname}`;
    const post = { title, type: 'GENERAL', mediaIds: [photo.id] };
    const body = { ...post, author: usuario.nickname, authorId: usuario.id };
    await apiCall(baseUrl, accessToken, 'POST', '/post', body, 201);

    // 390 CSS px at 2 device pixels each: the card wants about 700 px of image.
    const { page, context } = await newPage(browser(), baseUrl, { phone: true });
    await loginViaUi(page, author.email, author.senha);
    const img = page.locator('article.post-item', { hasText: title }).locator('.post-photos img');
    await img.scrollIntoViewIfNeeded();
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.currentSrc))
      .toMatch(/-t\.webp$/);
    await context.close();
  });
});
