import { Banner } from '@shopify/polaris';
import { format } from '../i18n';

/**
 * The variables a previewed template reads that its moment does not carry: a notification sends
 * them empty, so a misspelt name shows here before a member sees the gap.
 */
export function UnknownVariables({ variables, words }: { variables: string[] | undefined; words: { unknown: string } }) {
  // A core from before the warning answers without it.
  if (!variables?.length) return null;
  return <Banner tone="warning" title={format(words.unknown, { variables: variables.map((v) => `{{${v}}}`).join(', ') })} />;
}
