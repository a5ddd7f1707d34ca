import { SaveBar } from '@shopify/app-bridge-react';
import { Badge, Banner, Layout, Page } from '@shopify/polaris';
import { type ReactNode, useState } from 'react';
import { useMessages } from '../i18n/context';
import { ConfirmDelete } from './ConfirmDelete';
import { type HelpTopic, HelpFooter } from './HelpFooter';

export interface EditorFrameProps {
  id: string;
  title: string;
  status?: string;
  backUrl: string;
  /** The record's generic "All fields" page: offered in the Advanced menu only. */
  allFieldsUrl?: string;
  helpTopic: HelpTopic;
  dirty: boolean;
  /** A record not created yet: Save is offered before anything changed. */
  isNew?: boolean;
  saving: boolean;
  /** The core's refusal in words, when the last save failed. */
  refused?: string;
  onSave(): void;
  onDiscard(): void;
  /** A saved record: Delete is offered, and asks with the record's name before `onConfirm`. */
  deletion?: { name: string; onConfirm(): void };
  children: ReactNode;
}

/**
 * A merchant-worded editor's page: Save as the primary action and in the contextual save bar while
 * there are changes, the Advanced menu with the generic page, Delete behind a confirmation, a refusal
 * banner and the help link.
 */
export function EditorFrame(props: EditorFrameProps) {
  const { editors, editor, common } = useMessages();
  const [deleting, setDeleting] = useState(false);
  const m = editors.frame;
  return (
    <Page
      title={props.title}
      titleMetadata={
        props.status ? (
          <Badge tone={props.status === 'live' ? 'success' : undefined}>
            {editor.status.badge[props.status as keyof typeof editor.status.badge] ?? props.status}
          </Badge>
        ) : undefined
      }
      backAction={{ url: props.backUrl }}
      primaryAction={{ content: m.save, onAction: props.onSave, loading: props.saving, disabled: !props.dirty && !props.isNew }}
      secondaryActions={props.deletion ? [{ content: common.delete, destructive: true, onAction: () => setDeleting(true) }] : []}
      actionGroups={props.allFieldsUrl ? [{ title: m.advanced, actions: [{ content: m.allFields, url: props.allFieldsUrl }] }] : []}
    >
      <SaveBar id={props.id} open={props.dirty} discardConfirmation>
        <button {...{ variant: 'primary' }} onClick={props.onSave} disabled={props.saving}>
          {m.save}
        </button>
        <button onClick={props.onDiscard} disabled={props.saving}>
          {m.discard}
        </button>
      </SaveBar>
      {props.deletion ? (
        <ConfirmDelete
          name={deleting ? props.deletion.name : null}
          onConfirm={props.deletion.onConfirm}
          onClose={() => setDeleting(false)}
        />
      ) : null}
      <Layout>
        {props.refused ? (
          <Layout.Section>
            <Banner tone="critical" title={props.refused} />
          </Layout.Section>
        ) : null}
        {props.children}
        <Layout.Section>
          <HelpFooter topic={props.helpTopic} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
