import { FooterHelp, Link } from '@shopify/polaris';
import { format, type Messages } from '../i18n';
import { useMessages } from '../i18n/context';

export type HelpTopic = keyof Messages['help']['topics'];

/** The help link every admin page ends with: the app's own help page, at the page's topic. */
export function HelpFooter({ topic }: { topic?: HelpTopic }) {
  const { help } = useMessages();
  return (
    <FooterHelp>
      <Link url={topic ? `/app/help#${topic}` : '/app/help'}>
        {topic ? format(help.footer, { topic: help.topics[topic].title }) : help.footerGeneral}
      </Link>
    </FooterHelp>
  );
}
