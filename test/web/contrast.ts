/** WCAG 2.x contrast audit of a rendered page: every visible text node against its effective background. */
import type { Page } from 'playwright-core';

/** One text element whose colour pair misses WCAG AA. */
export interface ContrastFailure {
  text: string;
  color: string;
  background: string;
  ratio: number;
  required: number;
}

/** Runs in the page: returns the text elements below AA (4.5:1, or 3:1 for large text). */
function auditInPage(): ContrastFailure[] {
  const parse = (c: string): number[] => (c.match(/[\d.]+/g) ?? ['0', '0', '0', '0']).map(Number);
  const luminance = ([r, g, b]: number[]) => {
    const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const backgroundOf = (el: Element | null): number[] => {
    for (let node = el; node; node = node.parentElement) {
      const rgba = parse(getComputedStyle(node).backgroundColor);
      if ((rgba[3] ?? 1) > 0) return rgba;
    }
    return [255, 255, 255, 1];
  };
  const failures: ContrastFailure[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set<Element>();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || seen.has(el) || !n.textContent?.trim()) continue;
    seen.add(el);
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (style.visibility === 'hidden' || box.width === 0 || box.height === 0 || el.closest('[hidden], .sr-only')) continue;
    const fg = parse(style.color);
    const bg = backgroundOf(el);
    const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const required = large ? 3 : 4.5;
    if (ratio < required) {
      failures.push({
        text: n.textContent.trim().slice(0, 40),
        color: style.color,
        background: `rgb(${bg.slice(0, 3).join(', ')})`,
        ratio,
        required,
      });
    }
  }
  return failures;
}

/** The text elements of `page` that miss WCAG AA contrast. */
export function contrastFailures(page: Page): Promise<ContrastFailure[]> {
  return page.evaluate(auditInPage);
}
