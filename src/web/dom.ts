/** Small DOM helpers shared by the playground's views. */

/** The element with this id (the page's static structure guarantees it exists). */
export function byId<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

/** A new element with an optional class and text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}
