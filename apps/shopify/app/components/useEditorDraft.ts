import { useFetcher, useNavigate } from '@remix-run/react';
import { useAppBridge } from '@shopify/app-bridge-react';
import { useEffect, useRef, useState } from 'react';
import type { Refusal } from '../admin/refusals';
import { useAdminLanguage, useMessages } from '../i18n/context';

/** An editor's save answer: the record as the core now has it (as the editor's draft), or the refusal in words. */
export type EditorAnswer<D> = { ok: true; id: string; draft: D } | { ok: false; refusal: Refusal };

/**
 * The draft of a merchant-worded editor, kept on the page until the core has it: what changed since
 * the last save (for the save bar), the field errors of the last refusal, and the save itself. A new
 * record, once created, moves to its own address (`urlOf`) after the save bar has gone.
 */
export function useEditorDraft<D>(initial: D, id: string | null, urlOf: (id: string) => string) {
  const fetcher = useFetcher<EditorAnswer<D>>();
  const navigate = useNavigate();
  const shopify = useAppBridge();
  const language = useAdminLanguage();
  const { editors } = useMessages();
  const [draft, setDraft] = useState(initial);
  const [baseline, setBaseline] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refused, setRefused] = useState<string | undefined>();
  const [createdUrl, setCreatedUrl] = useState<string | null>(null);
  const answered = useRef<EditorAnswer<D> | null>(null);
  const dirty = JSON.stringify(draft) !== JSON.stringify(baseline);
  const saving = fetcher.state !== 'idle';

  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || fetcher.state !== 'idle' || answered.current === answer) return;
    answered.current = answer;
    if (!answer.ok) {
      setErrors(answer.refusal.fieldErrors);
      setRefused(answer.refusal.message);
      return;
    }
    setErrors({});
    setRefused(undefined);
    setBaseline(answer.draft);
    setDraft(answer.draft);
    shopify.toast.show(id ? editors.frame.saved : editors.frame.created);
    if (!id) setCreatedUrl(urlOf(answer.id));
  }, [fetcher.data, fetcher.state, id, editors, shopify, urlOf]);

  useEffect(() => {
    if (createdUrl && !dirty) navigate(createdUrl, { replace: true });
  }, [createdUrl, dirty, navigate]);

  const set = <K extends keyof D>(key: K, value: D[K]) => {
    setDraft((prev) => ({ ...prev, [key]: value }));
    setErrors(({ [key as string]: _gone, ...rest }) => rest);
  };

  return {
    draft,
    dirty,
    saving,
    errors,
    refused,
    /** The record's answer data, for pages that show more than the draft (a preview). */
    answer: fetcher.data,
    set,
    /** A field's value, its change and its error from the last refusal, for a Polaris field to spread. */
    field<K extends keyof D & string>(key: K) {
      return { value: draft[key], onChange: (value: D[K]) => set(key, value), error: errors[key] };
    },
    /** Shows the editor's own checks on their fields; true when there were none. */
    check(found: Record<string, string>) {
      setErrors(found);
      return Object.keys(found).length === 0;
    },
    /** Sends the draft, with what else the page's action needs to know (`extra`). */
    save(extra: Record<string, string | Record<string, string>> = {}) {
      fetcher.submit({ ...extra, intent: 'save', draft: draft as never, language }, { method: 'post', encType: 'application/json' });
    },
    discard() {
      setDraft(baseline);
      setErrors({});
      setRefused(undefined);
    },
  };
}
