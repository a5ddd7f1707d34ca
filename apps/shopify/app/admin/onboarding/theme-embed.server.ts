import type { AccountClient } from '../../core/client.server';
import { records } from '../../core/records.server';
import { isJsonObject, type JsonObject, objectOf } from '../../json';
import { type AdminGraphql, mainTheme } from '../../shopify/admin-api.server';

/** The theme app embed "Loyalty widget" (extensions/loyalty-theme/) as the checklist checks it. */

/** The app embed block's handle: extensions/loyalty-theme/blocks/loyalty-widget.liquid. */
export const EMBED_HANDLE = 'loyalty-widget';

/** The theme editor, on the main theme's app embeds, with the app's embed switched on (Shopify's deep link). */
export function themeEditorLink(shop: string, apiKey: string): string {
  return `https://${shop}/admin/themes/current/editor?context=apps&activateAppId=${encodeURIComponent(apiKey)}/${EMBED_HANDLE}`;
}

/** The records the embed's settings name: each setting, and the resource whose live record it takes. */
const EMBED_IDS = [
  { key: 'templateId', setting: 'template_id', slug: 'template' },
  { key: 'themeId', setting: 'theme_id', slug: 'theme' },
  { key: 'floatingWidgetId', setting: 'floating_widget_id', slug: 'floating_widget' },
] as const;

export type WidgetIds = { [K in (typeof EMBED_IDS)[number]['key']]: string | null };

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
  | {
      ok: false;
      reason: 'unreadable' | 'no_main_theme' | 'not_added' | 'disabled' | 'missing_ids' | 'unknown_ids' | 'not_live' | 'core_unavailable';
      themeName?: string;
      /** The embed settings at fault (template_id, theme_id, floating_widget_id). */
      fields?: string[];
      detail?: string;
    };

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads the main theme's settings_data.json (`read_themes`) and says whether the Loyalty widget
 * embed is on with ids of live records of this account, or what is wrong.
 */
export async function checkThemeEmbed(admin: AdminGraphql, api: AccountClient): Promise<EmbedCheck> {
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
  const settings = objectOf(block.settings);
  const given = EMBED_IDS.map((id) => ({ ...id, value: String(settings[id.setting] ?? '').trim() }));
  const empty = given.filter((id) => !id.value);
  if (empty.length) return { ok: false, reason: 'missing_ids', themeName, fields: empty.map((id) => id.setting) };
  const found = await Promise.all(given.map(async (id) => (UUID.test(id.value) ? await records(api, id.slug).get(id.value) : null)));
  const failed = found.find((f) => f && !f.ok && f.failure.status !== 404);
  if (failed && !failed.ok) return { ok: false, reason: 'core_unavailable', themeName, detail: failed.failure.message };
  const unknown = given.filter((_, i) => !found[i]?.ok);
  if (unknown.length) return { ok: false, reason: 'unknown_ids', themeName, fields: unknown.map((id) => id.setting) };
  const notLive = given.filter((_, i) => {
    const record = found[i];
    return record?.ok && record.data.status !== 'live';
  });
  if (notLive.length) return { ok: false, reason: 'not_live', themeName, fields: notLive.map((id) => id.setting) };
  return { ok: true, themeName };
}

/** The first live launcher, theme and template of the account: the ids the app embed takes. */
export async function liveWidgetIds(api: AccountClient): Promise<WidgetIds> {
  const first = async (slug: (typeof EMBED_IDS)[number]['slug']) => {
    const list = await records(api, slug).list({
      filters: { operator: 'and', conditions: [{ fieldSlug: 'status', operator: 'equals', fieldValue: 'live' }] },
      sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
      limit: 1,
    });
    return list.ok ? (list.data[0]?.id ?? null) : null;
  };
  const [templateId, themeId, floatingWidgetId] = await Promise.all(EMBED_IDS.map((id) => first(id.slug)));
  return { templateId: templateId ?? null, themeId: themeId ?? null, floatingWidgetId: floatingWidgetId ?? null };
}
