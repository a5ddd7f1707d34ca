import Handlebars from 'handlebars';

/** One isolated Handlebars environment for merchant templates; compiled templates are cached. */
const hbs = Handlebars.create();
const cache = new Map<string, HandlebarsTemplateDelegate>();
const CACHE_LIMIT = 1000;

export interface RenderOptions {
  /** HTML-escape `{{values}}` (email HTML); plain texts are escaped by whoever displays them. */
  escape: boolean;
  partials?: Record<string, string>;
}

function compiled(source: string, escape: boolean): HandlebarsTemplateDelegate {
  const key = `${escape ? 'h' : 't'}:${source}`;
  let template = cache.get(key);
  if (!template) {
    template = hbs.compile(source, { noEscape: !escape, strict: false });
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(key, template);
  }
  return template;
}

/**
 * A template that cannot render whatever the data: an unknown helper or partial, a block helper
 * misused. Callers tell it from other failures: sending it again cannot succeed.
 */
export class TemplateError extends Error {}

/** Renders a template; a missing variable renders empty, never throws (a broken template throws TemplateError). */
export function render(source: string, data: Record<string, unknown>, options: RenderOptions): string {
  try {
    return compiled(source, options.escape)(data, { partials: options.partials, allowProtoPropertiesByDefault: false });
  } catch (err) {
    throw new TemplateError((err as Error).message.split('\n')[0]);
  }
}

/** Checks template syntax; returns the parser's message (with its line) or undefined. */
export function syntaxError(source: string): string | undefined {
  try {
    hbs.precompile(source);
    return undefined;
  } catch (err) {
    return (err as Error).message.split('\n')[0];
  }
}
