import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from '@remix-run/node';
import { type ShouldRevalidateFunction, useLoaderData } from '@remix-run/react';
import { BlockStack, Card, FormLayout, Layout, Select, TextField } from '@shopify/polaris';
import { authenticateShop } from '../admin/authenticate.server';
import { refusalInWords } from '../admin/refusals';
import { readStandings } from '../admin/standings.server';
import { EditorFrame } from '../components/EditorFrame';
import { NameField, StatusSelect } from '../components/RecordFields';
import { Standings } from '../components/Standings';
import { TitledCard } from '../components/TitledCard';
import { type EditorAnswer, useEditorDraft } from '../components/useEditorDraft';
import { createRecord, records, removeRecord, type RecordOf, updateRecord } from '../core/records.server';
import { claimedLanguage, format, type Messages } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import { useMessages } from '../i18n/context';
import { objectOf } from '../json';
import { jsonBody } from '../http.server';
import { failureResponse } from '../core/failure';

/** A leaderboard in the merchant's words: which program, how members are ranked and named, what shoppers read. */

/** Programs, and the points setting: a points board ranks what members earn in a month. */
const KINDS = ['streak', 'challenge', 'mission', 'points_setting'] as const;
type Kind = (typeof KINDS)[number];
const isKind = (value: string): value is Kind => (KINDS as readonly string[]).includes(value);

/** The ways each kind of program ranks, its default first (CONTRACT §15). */
const RANKS_OF: Record<Kind, RankBy[]> = {
  streak: ['current_run', 'longest_run'],
  challenge: ['window_progress'],
  mission: ['completions'],
  points_setting: ['points'],
};
type Board = RecordOf<'leaderboard'>;
type RankBy = NonNullable<Board['rankBy']>;
type DisplayName = NonNullable<Board['displayName']>;
type Status = NonNullable<Board['status']>;

export interface LeaderboardDraft {
  name: string;
  description: string;
  status: Status;
  /** `kind:id` of the ranked program. */
  program: string;
  rankBy: RankBy;
  size: string;
  displayName: DisplayName;
  eudTitle: string;
  eudDescription: string;
}

const draftOf = (board: Board | null): LeaderboardDraft => ({
  name: board?.name ?? '',
  description: board?.description ?? '',
  status: board?.status ?? 'live',
  program: board ? `${board.linkedSchemaSlug}:${board.linkedSchemaRecordId}` : '',
  rankBy: board?.rankBy ?? 'current_run',
  size: String(board?.size ?? 10),
  displayName: board?.displayName ?? 'first_name_initial',
  eudTitle: board?.eudTitle ?? '',
  eudDescription: board?.eudDescription ?? '',
});

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { api } = await authenticateShop(request);
  const id = params.id && params.id !== 'new' ? params.id : null;
  const [board, ...programs] = await Promise.all([
    id ? records(api, 'leaderboard').get(id) : null,
    ...KINDS.map((kind) => records(api, kind).list({ limit: 250, sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' }] })),
  ]);
  if (board && !board.ok) throw failureResponse(board.failure);
  const standings = board?.ok ? await readStandings(api, board.data, new URL(request.url).searchParams.get('periodKey')) : null;
  return {
    id,
    draft: draftOf(board?.ok ? board.data : null),
    programs: KINDS.flatMap((kind, i) => {
      const list = programs[i];
      return list?.ok ? list.data.map((p) => ({ kind, id: p.id, name: 'name' in p ? String(p.name) : '' })) : [];
    }),
    standings,
  };
};

/** The editor's field each core field is shown on. */
const FIELD_OF: Record<string, keyof LeaderboardDraft> = { linkedSchemaSlug: 'program', linkedSchemaRecordId: 'program' };

const labelsOf = (m: Messages['editors']): Record<keyof LeaderboardDraft, string> => ({
  name: m.name.label,
  description: m.description.label,
  status: m.status.label,
  program: m.leaderboard.program.label,
  rankBy: m.leaderboard.rankBy.label,
  size: m.leaderboard.size.label,
  displayName: m.leaderboard.displayName.label,
  eudTitle: m.leaderboard.shopperTitle.label,
  eudDescription: m.leaderboard.shopperDescription.label,
});

export const action = async ({ request, params }: ActionFunctionArgs): Promise<EditorAnswer<LeaderboardDraft> | Response> => {
  const { api } = await authenticateShop(request);
  const input = objectOf(await jsonBody(request));
  const language = claimedLanguage(input.language, request);
  const words = ADMIN_MESSAGES[language].editors;
  const id = params.id && params.id !== 'new' ? params.id : null;
  if (input.intent === 'delete' && id) {
    const removed = await removeRecord(api, 'leaderboard', id);
    if (!removed.ok) throw failureResponse(removed.failure);
    return redirect('/app/r/leaderboard');
  }
  const d = objectOf(input.draft);
  if (input.intent !== 'save' || typeof d.program !== 'string')
    throw new Response('The body must be {"intent": "save", "draft": {…}}.', { status: 400 });
  const [kind = '', programId = ''] = d.program.split(':');
  const text = (key: string) => (typeof d[key] === 'string' ? d[key] : '');
  const optional = (key: string) => text(key).trim() || null;
  const body = {
    name: text('name').trim(),
    description: optional('description'),
    status: text('status') as Status,
    ...(isKind(kind) ? { linkedSchemaSlug: kind, linkedSchemaRecordId: programId } : {}),
    rankBy: text('rankBy') as RankBy,
    size: Number(text('size')),
    displayName: text('displayName') as DisplayName,
    eudTitle: optional('eudTitle'),
    eudDescription: optional('eudDescription'),
  };
  const saved = id
    ? await updateRecord(api, 'leaderboard', id, body)
    : await createRecord(api, 'leaderboard', {
        ...body,
        linkedSchemaSlug: isKind(kind) ? kind : 'streak',
        linkedSchemaRecordId: programId,
      });
  if (!saved.ok)
    return { ok: false, refusal: refusalInWords(saved.failure, words.refusals, language, labelsOf(words), (f) => FIELD_OF[f] ?? f) };
  return { ok: true, id: saved.data.id, draft: draftOf(saved.data) };
};

// A save answers with the board as the core now has it.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === 'POST' ? false : defaultShouldRevalidate;

const urlOf = (id: string) => `/app/leaderboards/${id}`;

export default function LeaderboardEditor() {
  const { id, draft: initial, programs, standings } = useLoaderData<typeof loader>();
  return <Editor key={id ?? 'new'} id={id} initial={initial} programs={programs} standings={standings} />;
}

function Editor({
  id,
  initial,
  programs,
  standings,
}: {
  id: string | null;
  initial: LeaderboardDraft;
  programs: { kind: Kind; id: string; name: string }[];
  standings: ReturnType<typeof useLoaderData<typeof loader>>['standings'];
}) {
  const { editors: m } = useMessages();
  const form = useEditorDraft(initial, id, urlOf);
  const { draft, errors } = form;
  const labels = labelsOf(m);
  const kind = draft.program.split(':')[0] ?? '';
  const ranks = isKind(kind) ? RANKS_OF[kind] : [];
  const save = () => {
    const found: Record<string, string> = {};
    if (!draft.name.trim()) found.name = format(m.refusals.required, { label: labels.name });
    if (!draft.program) found.program = format(m.refusals.required, { label: labels.program });
    if (form.check(found)) form.save();
  };
  const pickProgram = (value: string) => {
    form.set('program', value);
    const next = value.split(':')[0] ?? '';
    if (isKind(next) && !RANKS_OF[next].includes(draft.rankBy)) form.set('rankBy', RANKS_OF[next][0]!);
  };
  const l = m.leaderboard;
  return (
    <EditorFrame
      id="leaderboard-save-bar"
      title={draft.name || initial.name || l.newTitle}
      backUrl="/app/r/leaderboard"
      record={{ slug: 'leaderboard', id, name: initial.name, status: initial.status }}
      helpTopic="leaderboards"
      form={form}
      onSave={save}
    >
      <Layout.Section>
        <BlockStack gap="400">
          <Card>
            <FormLayout>
              <NameField label={labels.name} helpText={m.name.help} {...form.field('name')} />
              <Select
                label={labels.program}
                helpText={l.program.help}
                options={programs.map((p) => ({
                  label: p.kind === 'points_setting' ? l.program.points : `${p.name} (${l.kinds[p.kind]})`,
                  value: `${p.kind}:${p.id}`,
                }))}
                placeholder={programs.length ? ' ' : l.program.none}
                value={draft.program}
                onChange={pickProgram}
                error={errors.program}
              />
              <StatusSelect label={labels.status} helpText={m.status.help} {...form.field('status')} />
              <TextField
                label={labels.description}
                helpText={m.description.help}
                autoComplete="off"
                multiline={2}
                {...form.field('description')}
              />
            </FormLayout>
          </Card>
          <TitledCard title={l.sections.ranking}>
            <FormLayout>
              <Select
                label={labels.rankBy}
                options={(ranks.length ? ranks : [draft.rankBy]).map((r) => ({ label: l.rankBy.options[r], value: r }))}
                {...form.field('rankBy')}
              />
              <TextField
                label={labels.size}
                helpText={l.size.help}
                type="number"
                min={1}
                max={100}
                autoComplete="off"
                {...form.field('size')}
              />
              <Select
                label={labels.displayName}
                options={(['first_name_initial', 'anonymous'] as const).map((d) => ({ label: l.displayName.options[d], value: d }))}
                {...form.field('displayName')}
              />
            </FormLayout>
          </TitledCard>
          <TitledCard title={l.sections.shopper}>
            <FormLayout>
              <TextField label={labels.eudTitle} helpText={l.shopperTitle.help} autoComplete="off" {...form.field('eudTitle')} />
              <TextField
                label={labels.eudDescription}
                helpText={l.shopperDescription.help}
                autoComplete="off"
                multiline={2}
                {...form.field('eudDescription')}
              />
            </FormLayout>
          </TitledCard>
          {standings ? <Standings result={standings} /> : null}
        </BlockStack>
      </Layout.Section>
    </EditorFrame>
  );
}
