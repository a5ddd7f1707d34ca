/**
 * The UI extensions' jsdom tests read what Preact renders into the host's web components. Each
 * host registers its components (`s-*`) as custom elements; here each is a bare one, so the tree
 * Preact builds (tags, attributes, text) is what the assertions read.
 */
export function defineBareElements(tags: readonly string[]): void {
  for (const tag of tags) customElements.define(`s-${tag}`, class extends HTMLElement {});
}

// Child elements read as separate words, as they render apart.
const words = (node: Node): string =>
  node.nodeType === Node.TEXT_NODE ? (node.textContent ?? '') : ` ${[...node.childNodes].map(words).join('')} `;

/** An element's text as a reader sees it, one space between words; the s-* element types are not DOM `Element`s to TypeScript, in jsdom they are. */
export const text = (el: object | null): string | undefined =>
  el
    ? words(el as Node)
        .replace(/\s+/g, ' ')
        .trim()
    : undefined;
