import type { Page } from 'playwright-core';

/**
 * The controls of the page too small for a finger (WCAG 2.5.8, with the stricter aim):
 * each visible link, button, field, summary or checkbox is at least 44×44 CSS px, or at least
 * 24×24 with no other control within the 44×44 square around its centre. A link inside a line
 * of text is exempt (WCAG's inline exception), as is a checkbox whose label (at least 44 px
 * high) is its target. Each offender as `tag "name" W×H`.
 */
export function smallTouchTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input, select, textarea, summary';
    const inline = (el: Element) => {
      if (el.tagName !== 'A') return false;
      const parent = el.parentElement;
      return (
        getComputedStyle(el).display === 'inline' &&
        parent !== null &&
        [...parent.childNodes].some((n) => n !== el && (n.textContent ?? '').trim() !== '')
      );
    };
    const targetOf = (el: Element): Element => {
      const label = el.closest('label');
      return (el as HTMLInputElement).type === 'checkbox' && label ? label : el;
    };
    const controls = [...document.querySelectorAll(selector)]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && !inline(el);
      })
      .filter((el) => !el.closest('.visually-hidden, .skip-link'))
      .map((el) => ({ el, rect: targetOf(el).getBoundingClientRect() }));
    const near = (a: DOMRect, b: DOMRect) => {
      const cx = a.left + a.width / 2;
      const cy = a.top + a.height / 2;
      return b.left < cx + 22 && b.right > cx - 22 && b.top < cy + 22 && b.bottom > cy - 22;
    };
    // A field is named by its label (and its type), so an offender can be found on the page.
    const name = (el: Element) => {
      const label = (el as HTMLInputElement).labels?.[0]?.textContent;
      const type = el.tagName === 'INPUT' ? ` [${(el as HTMLInputElement).type}]` : '';
      return (
        (el.getAttribute('aria-label') ?? label ?? el.textContent ?? '').trim().slice(0, 40) + type
      );
    };
    return controls
      .filter(({ el, rect }, i) => {
        if (rect.width >= 43.5 && rect.height >= 43.5) return false;
        if (rect.width < 23.5 || rect.height < 23.5) return true;
        return controls.some(
          (other, j) =>
            j !== i && other.el !== el && !other.el.contains(el) && near(rect, other.rect),
        );
      })
      .map(
        ({ el, rect }) =>
          `${el.tagName.toLowerCase()} "${name(el)}" ${Math.round(rect.width)}×${Math.round(rect.height)}`,
      );
  });
}
