import { isJsonObject, type JsonObject, objectOf } from '../../json';
import { type AdminGraphql, mainTheme } from '../../shopify/admin-api.server';

/** The theme app embed "Loyalty widget" (extensions/loyalty-theme/) as the checklist checks it. */

/** The app embed block's handle: extensions/loyalty-theme/blocks/loyalty-widget.liquid. */
export const EMBED_HANDLE = 'loyalty-widget';

/** The theme editor, on the main theme's app embeds, with the app's embed switched on (Shopify's deep link). */
export function themeEditorLink(shop: string, apiKey: string): string {
  return `https://${shop}/admin/themes/current/editor?context=apps&activateAppId=${encodeURIComponent(apiKey)}/${EMBED_HANDLE}`;
}

/** The "Loyalty program" block's handle: extensions/loyalty-theme/blocks/loyalty-page.liquid. */
export const PAGE_BLOCK_HANDLE = 'loyalty-page';

/** The theme editor on the main theme's page template, adding the loyalty page block in a new section (Shopify's app block deep link). */
export function pageBlockLink(shop: string, apiKey: string): string {
  return `https://${shop}/admin/themes/current/editor?template=page&addAppBlockId=${encodeURIComponent(apiKey)}/${PAGE_BLOCK_HANDLE}&target=newAppsSection`;
}

/** The "Loyalty points" block's handle: extensions/loyalty-theme/blocks/loyalty-points.liquid. */
export const POINTS_BLOCK_HANDLE = 'loyalty-points';

/** The theme editor on the main theme's product or cart template, adding the points block to its main section (a product's price, the cart's lines). */
export function pointsBlockLink(shop: string, apiKey: string, template: 'product' | 'cart'): string {
  return `https://${shop}/admin/themes/current/editor?template=${template}&addAppBlockId=${encodeURIComponent(apiKey)}/${POINTS_BLOCK_HANDLE}&target=mainSection`;
}

/**
 * JSON with the comments themes put in `config/settings_data.json` (a leading `/* … *\/` block,
 * sometimes `//` lines) removed; text inside strings is left alone.
 */
export function parseThemeJson(text: string): unknown {
  let out = '';
  let i = 0;
  const source = text.replace(/^\uFEFF/, '');
  while (i < source.length) {
    const c = source[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
    } else if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i + 2);
      i = end < 0 ? source.length : end;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out);
}

export type EmbedCheck =
  | { ok: true; themeName: string }
  | { ok: false; reason: 'unreadable' | 'no_main_theme' | 'not_added' | 'disabled'; themeName?: string; detail?: string };

/** The app's embed block in a parsed settings_data.json, if the theme has one. */
export function findEmbedBlock(settings: unknown): JsonObject | null {
  const root = objectOf(settings);
  // `current` is the settings object, or the name of a preset that holds them.
  const current = objectOf(typeof root.current === 'string' ? objectOf(root.presets)[root.current] : root.current);
  if (!isJsonObject(current.blocks)) return null;
  const block = new RegExp(`^shopify://apps/[^/]+/blocks/${EMBED_HANDLE}/`);
  return (
    Object.values(current.blocks)
      .filter(isJsonObject)
      .find((b) => typeof b.type === 'string' && block.test(b.type)) ?? null
  );
}

/**
 * Reads the main theme's settings_data.json (`read_themes`) and says whether the Loyalty widget
 * embed is on, or what is wrong. The embed takes its ids from the app's metafields, so being on is
 * all the theme has to say.
 */
export async function checkThemeEmbed(admin: AdminGraphql): Promise<EmbedCheck> {
  let theme;
  try {
    theme = await mainTheme(admin);
  } catch (err) {
    return { ok: false, reason: 'unreadable', detail: err instanceof Error ? err.message.slice(0, 300) : String(err) };
  }
  if (!theme) return { ok: false, reason: 'no_main_theme' };
  const themeName = theme.name;
  if (theme.settingsData === undefined) return { ok: false, reason: 'not_added', themeName };
  let block: JsonObject | null;
  try {
    block = findEmbedBlock(parseThemeJson(theme.settingsData));
  } catch (err) {
    return { ok: false, reason: 'unreadable', themeName, detail: err instanceof Error ? err.message : String(err) };
  }
  if (!block) return { ok: false, reason: 'not_added', themeName };
  if (block.disabled === true) return { ok: false, reason: 'disabled', themeName };
  return { ok: true, themeName };
}
