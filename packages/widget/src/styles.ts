/**
 * Adds rules to the widget's shadow root as a constructed stylesheet: a store whose
 * Content-Security-Policy has no 'unsafe-inline' for styles blocks a `<style>` element, not this.
 * Browsers without constructed stylesheets get the element. Rules added later come after, in both;
 * the function returned takes them out again.
 */
export function addStyles(shadow: ShadowRoot, css: string): () => void {
  if ('adoptedStyleSheets' in shadow && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet];
    return () => {
      shadow.adoptedStyleSheets = shadow.adoptedStyleSheets.filter((s) => s !== sheet);
    };
  }
  const style = document.createElement('style');
  style.textContent = css;
  // After the rules added before, ahead of the widget's elements.
  const added = shadow.querySelectorAll('style');
  shadow.insertBefore(style, added.length ? added[added.length - 1]!.nextSibling : shadow.firstChild);
  return () => style.remove();
}
