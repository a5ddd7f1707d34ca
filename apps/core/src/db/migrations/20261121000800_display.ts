import type { Knex } from 'knex';
import { createdIndex, guestIdIndex, recordColumns, statusColumn } from './columns.js';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('floating_widget', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description').notNullable();
    statusColumn(t, 'live');
    t.jsonb('eud_title');
    t.text('eud_icon');
    t.text('alignment').notNullable();
    t.integer('alignment_position_x').notNullable();
    t.integer('alignment_position_y').notNullable();
    t.text('background_color').notNullable();
    t.text('border_color').notNullable();
    t.text('text_color').notNullable();
    t.integer('border_width').notNullable();
    t.integer('border_radius').notNullable();
    t.text('box_shadow').notNullable();
    t.integer('font_size').notNullable();
    createdIndex(t, 'floating_widget');
    guestIdIndex(t, 'floating_widget');
  });
  await db.schema.createTable('theme', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    statusColumn(t, 'live');
    for (const c of [
      'primary_color',
      'primary_contrast_text_color',
      'secondary_color',
      'primary_text_color',
      'secondary_text_color',
      'background_color',
      'font_family',
    ]) {
      t.text(c).notNullable();
    }
    t.integer('border_radius').notNullable();
    createdIndex(t, 'theme');
    guestIdIndex(t, 'theme');
  });
  await db.schema.createTable('template', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    statusColumn(t, 'live');
    for (const c of [
      'logged_in_title',
      'logged_in_sub_title',
      'logged_out_title',
      'logged_out_sub_title',
      'sign_up_button_text',
      'sign_up_url',
      'log_in_button_text',
      'log_in_url',
      'copied_message',
      'streaks_tab_title',
      'challenges_tab_title',
      'missions_tab_title',
      'rewards_tab_title',
    ]) {
      t.jsonb(c);
    }
    createdIndex(t, 'template');
    guestIdIndex(t, 'template');
  });
  await db.schema.createTable('upload', (t) => {
    recordColumns(db, t);
    t.text('content_type').notNullable();
    t.integer('size').notNullable();
    t.text('filename');
    t.binary('data').notNullable();
    createdIndex(t, 'upload');
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['upload', 'template', 'theme', 'floating_widget']) await db.schema.dropTable(table);
}
