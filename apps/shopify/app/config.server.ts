/** Every environment variable of the app, parsed once; all problems are reported together. */
export interface AppConfig {
  apiKey: string;
  apiSecret: string;
  appUrl: string;
  scopes: string[];
  databaseUrl: string;
  coreUrl: string;
  /** The core as shoppers' browsers reach it (the widget's baseUrl); defaults to coreUrl. */
  corePublicUrl: string;
  platformToken: string;
  /** 32 bytes for AES-256-GCM of the stored API secrets. */
  encryptionKey: Buffer;
  /** Where the core delivers the events the app turns into Flow triggers and discounts; defaults to the app's /loyalty/events. */
  eventsUrl: string;
  /** Seconds between attempts at a Flow trigger or a discount that failed and may succeed later. */
  retrySchedule: number[];
  /** Rows of balance imports a worker process works at once, on connections of their own. */
  pointsImportLanes: number;
  /**
   * Connections a process's pool on the app's database opens at most (the earning and import lanes'
   * come on top). Not below 4: the worker's outbox sender and exclusions sweep hold up to three
   * transactions' connections from it while they read from it besides, and need one more place.
   */
  dbPoolMax: number;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const problems: string[] = [];
  const required = (name: string): string => {
    const value = env[name]?.trim();
    if (!value) problems.push(`${name} is required`);
    return value ?? '';
  };
  const apiKey = required('SHOPIFY_API_KEY');
  const apiSecret = required('SHOPIFY_API_SECRET');
  const appUrl = required('SHOPIFY_APP_URL');
  const databaseUrl = required('DATABASE_URL');
  const coreUrl = required('LOYALTY_CORE_URL').replace(/\/+$/, '');
  const corePublicUrl = (env.LOYALTY_CORE_PUBLIC_URL?.trim() || coreUrl).replace(/\/+$/, '');
  const platformToken = required('LOYALTY_PLATFORM_TOKEN');
  const keyText = required('LOYALTY_SHOPIFY_ENCRYPTION_KEY');
  const encryptionKey = Buffer.from(keyText, 'base64');
  if (keyText && encryptionKey.length !== 32) problems.push('LOYALTY_SHOPIFY_ENCRYPTION_KEY must be 32 bytes, base64-encoded');
  for (const [name, value] of [
    ['SHOPIFY_APP_URL', appUrl],
    ['LOYALTY_CORE_URL', coreUrl],
    ['LOYALTY_CORE_PUBLIC_URL', corePublicUrl],
  ] as const) {
    if (value && !URL.canParse(value)) problems.push(`${name} must be an absolute URL`);
  }
  const eventsUrl = env.LOYALTY_EVENTS_URL?.trim() || `${appUrl.replace(/\/+$/, '')}/loyalty/events`;
  if (appUrl && !URL.canParse(eventsUrl)) problems.push('LOYALTY_EVENTS_URL must be an absolute URL');
  const retrySchedule = (env.LOYALTY_SHOPIFY_RETRY_SCHEDULE ?? '5,30,120,600,1800').split(',').map((s) => Number(s.trim()));
  if (retrySchedule.some((n) => !Number.isFinite(n) || n < 0))
    problems.push('LOYALTY_SHOPIFY_RETRY_SCHEDULE must be comma-separated non-negative seconds');
  const whole = (name: string, fallback: number, min: number, max: number): number => {
    const value = Number(env[name]?.trim() || fallback);
    if (!Number.isInteger(value) || value < min || value > max) problems.push(`${name} must be a whole number from ${min} to ${max}`);
    return value;
  };
  const pointsImportLanes = whole('LOYALTY_POINTS_IMPORT_LANES', 4, 1, 16);
  const dbPoolMax = whole('LOYALTY_SHOPIFY_DB_POOL_MAX', 10, 4, 100);
  if (problems.length) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const scopes = (
    env.SCOPES ??
    'write_customers,write_discounts,read_themes,read_locales,read_orders,read_products,read_store_credit_accounts,read_store_credit_account_transactions,write_store_credit_account_transactions'
  )
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    apiKey,
    apiSecret,
    appUrl,
    scopes,
    databaseUrl,
    coreUrl,
    corePublicUrl,
    platformToken,
    encryptionKey,
    eventsUrl,
    retrySchedule,
    pointsImportLanes,
    dbPoolMax,
  };
}

export const config = loadConfig();
