/** What a merchant passes to `LoyaltyWidget.init` (CONTRACT §13). */
export interface WidgetConfig {
  baseUrl: string;
  accountId: string;
  templateId: string;
  themeId: string;
  floatingWidgetId: string;
  /** An end-user token: member mode. Absent: guest mode. */
  accessToken?: string;
  languageCode?: string;
}

/** The lazily loaded app module. */
export interface WidgetApp {
  mount(config: WidgetConfig): void;
}

const REQUIRED = ['baseUrl', 'accountId', 'templateId', 'themeId', 'floatingWidgetId'] as const;
const OPTIONAL = ['accessToken', 'languageCode'] as const;

export function isWidgetConfig(value: unknown): value is WidgetConfig {
  if (!value || typeof value !== 'object') return false;
  const c = value as Record<string, unknown>;
  return REQUIRED.every((k) => typeof c[k] === 'string' && c[k] !== '') && OPTIONAL.every((k) => c[k] == null || typeof c[k] === 'string');
}
