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

/** Money in the admin's language: in its currency when known, else as a plain number. */
export function useMoneyText(): (amount: number, currency: string | null) => string {
  const language = useAdminLanguage();
  return (amount, currency) =>
    currency
      ? new Intl.NumberFormat(language, { style: 'currency', currency }).format(amount)
      : new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(amount);
}
