import { expect, it } from 'vitest';
import { visible } from './support/browser';
import { png } from './support/png';
import { openComposer } from './support/posts';
import { describeE2e } from './support/suite';

describeE2e('avatar', ({ register, signIn }) => {
  it('sets an avatar on Minha conta and sees it beside the post in the feed', async () => {
    const author = await register('avatar');
    const { page } = await signIn(author);
    await page.goto('/minha-conta');
    const editor = page.locator('fieldset.image-editor');
    await visible(editor);
    await editor.getByLabel('Escolher foto do perfil').setInputFiles({
      name: 'eu.png',
      mimeType: 'image/png',
      buffer: png(300, [30, 160, 90]),
    });
    // The preview shows before saving.
    const preview = editor.locator('img.avatar');
    expect(await preview.getAttribute('src')).toMatch(/^blob:/);
    // Touch targets of at least 44 px (the phone layout's rule) for the editor's controls.
    for (const control of await editor.locator('button, label').all())
      expect((await control.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await editor.getByRole('button', { name: 'Salvar' }).click();
    await expect.poll(() => preview.getAttribute('src')).toMatch(/^\/media\/files\/.+\.webp$/);
    const avatarUrl = (await preview.getAttribute('src'))!;
    await visible(editor.getByRole('button', { name: 'Remover' }));

    await page.goto('/');
    const title = `Com avatar ${author.nickname}`;
    const composer = await openComposer(page);
    await composer.getByLabel('Título').fill(title);
    await composer.getByRole('button', { name: 'Publicar' }).click();
    const card = page.locator('article.post-item', {
      has: page.getByRole('link', { name: title }),
    });
    const avatar = card.locator('img.avatar');
    await visible(avatar);
    expect(await avatar.getAttribute('src')).toBe(avatarUrl);
    await expect
      .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  });
});
