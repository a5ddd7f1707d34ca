import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { AdminLanguage, Messages } from './index';

/** The admin's language and its texts, as the layout's loader sent them (no default: a page outside the layout has neither). */
const LanguageContext = createContext<{ language: AdminLanguage; messages: Messages } | null>(null);

export function AdminLanguageProvider({
  language,
  messages,
  children,
}: {
  language: AdminLanguage;
  messages: Messages;
  children: ReactNode;
}) {
  const value = useMemo(() => ({ language, messages }), [language, messages]);
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

function useLanguageContext() {
  const found = useContext(LanguageContext);
  if (!found) throw new Error('The admin texts are read under AdminLanguageProvider only (the /app layout).');
  return found;
}

/** The current admin language's texts, for components under the admin layout. */
export function useMessages(): Messages {
  return useLanguageContext().messages;
}

export function useAdminLanguage(): AdminLanguage {
  return useLanguageContext().language;
}

/** A number in the admin's language ("1.001,98" in German), to two decimals at most: progress, ranks' values. */
export function useNumberText(): (value: number) => string {
  const number = new Intl.NumberFormat(useAdminLanguage(), { maximumFractionDigits: 2 });
  return (value) => number.format(value);
}

/** A rate (0.25) as a whole percentage in the admin's language ("25 %" in German); '—' for none. */
export function usePercentText(): (rate: number | null) => string {
  const percent = new Intl.NumberFormat(useAdminLanguage(), { style: 'percent', maximumFractionDigits: 0 });
  return (rate) => (rate === null ? '—' : percent.format(rate));
}

/** Money in the admin's language: in its currency when known, else as a plain number. */
export function useMoneyText(): (amount: number, currency: string | null) => string {
  const language = useAdminLanguage();
  const number = useNumberText();
  return (amount, currency) =>
    currency ? new Intl.NumberFormat(language, { style: 'currency', currency }).format(amount) : number(amount);
}
