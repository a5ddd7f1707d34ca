import { useSubmit } from '@remix-run/react';
import { SaveBar } from '@shopify/app-bridge-react';
import { Badge, Banner, Layout, Page } from '@shopify/polaris';
import { type ReactNode, useState } from 'react';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { ConfirmDelete } from './ConfirmDelete';
import { type HelpTopic, HelpFooter } from './HelpFooter';

/** What the frame shows of an editor's draft (`useEditorDraft`). */
export interface EditorState {
  dirty: boolean;
  saving: boolean;
  /** The core's refusal in words, when the last save failed. */
  refused?: string;
  discard(): void;
}

/** The record an editor of one record edits; its id is null until it is created. */
export interface EditedRecord {
  slug: string;
  id: string | null;
  name: string;
  status: string;
}

export interface EditorFrameProps {
  id: string;
  title: string;
  backUrl: string;
  /**
   * A record's editor: its status badge, Save before anything changed while it is new, its generic
   * "All fields" page in the Advanced menu, and Delete (asking with its name; the route's action
   * takes `{ intent: 'delete', language }`) once it is saved.
   */
  record?: EditedRecord;
  /** What else deleting the record changes, said in the confirmation. */
  deleteConsequences?: string[];
  /** The generic "All fields" page of an editor that is not a record's. */
  allFieldsUrl?: string;
  helpTopic: HelpTopic;
  form: EditorState;
  onSave(): void;
  children: ReactNode;
}

/**
 * A merchant-worded editor's page: Save as the primary action and in the contextual save bar while
 * there are changes, the Advanced menu with the generic page, Delete behind a confirmation, a refusal
 * banner and the help link.
 */
export function EditorFrame(props: EditorFrameProps) {
  const { editors, editor, common } = useMessages();
  const submit = useSubmit();
  const language = useAdminLanguage();
  const [deleting, setDeleting] = useState(false);
  const { record, form } = props;
  const saved = record?.id ? record : null;
  // A record not created yet: Save is offered before anything changed.
  const isNew = record !== undefined && !saved;
  const allFieldsUrl = saved ? `/app/r/${saved.slug}/${saved.id}` : props.allFieldsUrl;
  const m = editors.frame;
  return (
    <Page
      title={props.title}
      titleMetadata={
        saved ? (
          <Badge tone={saved.status === 'live' ? 'success' : undefined}>
            {editor.status.badge[saved.status as keyof typeof editor.status.badge] ?? saved.status}
          </Badge>
        ) : undefined
      }
      backAction={{ content: common.back, url: props.backUrl }}
      primaryAction={{ content: m.save, onAction: props.onSave, loading: form.saving, disabled: !form.dirty && !isNew }}
      secondaryActions={saved ? [{ content: common.delete, destructive: true, onAction: () => setDeleting(true) }] : []}
      actionGroups={allFieldsUrl ? [{ title: m.advanced, actions: [{ content: m.allFields, url: allFieldsUrl }] }] : []}
    >
      <SaveBar id={props.id} open={form.dirty} discardConfirmation>
        <button {...{ variant: 'primary' }} onClick={props.onSave} disabled={form.saving}>
          {m.save}
        </button>
        <button onClick={form.discard} disabled={form.saving}>
          {m.discard}
        </button>
      </SaveBar>
      {saved ? (
        <ConfirmDelete
          name={deleting ? saved.name : null}
          consequences={props.deleteConsequences}
          onConfirm={() => submit({ intent: 'delete', language }, { method: 'post', encType: 'application/json' })}
          onClose={() => setDeleting(false)}
        />
      ) : null}
      <Layout>
        {form.refused ? (
          <Layout.Section>
            <Banner tone="critical" title={form.refused} />
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
