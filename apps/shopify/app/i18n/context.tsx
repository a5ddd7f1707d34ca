import { createContext, useContext, type ReactNode } from 'react';
import { ADMIN_MESSAGES, type AdminLanguage, type Messages } from './index';

const LanguageContext = createContext<AdminLanguage>('en');

export function AdminLanguageProvider({ language, children }: { language: AdminLanguage; children: ReactNode }) {
  return <LanguageContext.Provider value={language}>{children}</LanguageContext.Provider>;
}

/** The current admin language's texts, for components under the admin layout. */
export function useMessages(): Messages {
  return ADMIN_MESSAGES[useContext(LanguageContext)];
}

export function useAdminLanguage(): AdminLanguage {
  return useContext(LanguageContext);
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
