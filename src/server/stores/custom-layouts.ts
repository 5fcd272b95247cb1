/** Players' own layouts, one row per shape keyed by content and never changed, and players' names for them. */
import type { Sql } from '../db/sql.ts';
import type { CustomLayoutRow, CustomLayoutsStore, LayoutNameRow } from './types.ts';

const COLUMNS = 'id, name, format, tiles, slots, created_at';
const BY_ID = `SELECT ${COLUMNS} FROM custom_layouts WHERE id = ?`;
const NAMES_AT_ONCE = 500; // ids per query

export function createCustomLayoutsStore(sql: Sql): CustomLayoutsStore {
  const namesOf = `SELECT id, name FROM custom_layouts WHERE ${sql.dialect.among('id')}`;
  const playerNamesOf = `SELECT layout, name FROM layout_names WHERE player_id = ? AND ${sql.dialect.among('layout')}`;
  return {
    async find(id) {
      return sql.one<CustomLayoutRow>(BY_ID, [id]);
    },
    async store(row) {
      return sql.transaction(async (tx) => {
        const created =
          (await tx.run(
            `INSERT INTO custom_layouts (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
            [row.id, row.name, row.format, row.tiles, row.slots, row.created_at],
          )) === 1;
        return { row: created ? row : (await tx.one<CustomLayoutRow>(BY_ID, [row.id]))!, created };
      });
    },
    async names(ids) {
      const names = new Map<string, string>();
      for (let i = 0; i < ids.length; i += NAMES_AT_ONCE)
        for (const r of await sql.all<{ id: string; name: string }>(namesOf, [
          sql.list(ids.slice(i, i + NAMES_AT_ONCE)),
        ]))
          names.set(r.id, r.name);
      return names;
    },
    async playerNames(playerId, ids) {
      const names = new Map<string, string>();
      for (let i = 0; i < ids.length; i += NAMES_AT_ONCE)
        for (const r of await sql.all<{ layout: string; name: string }>(playerNamesOf, [
          playerId,
          sql.list(ids.slice(i, i + NAMES_AT_ONCE)),
        ]))
          names.set(r.layout, r.name);
      return names;
    },
    async playerLayouts(playerId, limit) {
      return sql.all<LayoutNameRow>(
        `SELECT n.layout, n.name, c.tiles, n.named_at FROM layout_names n JOIN custom_layouts c ON c.id = n.layout
         WHERE n.player_id = ? ORDER BY n.named_at DESC, n.layout${sql.dialect.binary} LIMIT ?`,
        [playerId, limit],
      );
    },
    async keepName(playerId, layout, name, now, max) {
      return sql.transaction(async (tx) => {
        await tx.run('INSERT INTO players (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING', [playerId, now]);
        // The player row locked to the end, so two namings at once cannot pass `max` together.
        await tx.one(`SELECT 1 AS locked FROM players WHERE id = ?${tx.dialect.lockRow}`, [playerId]);
        const changed = await tx.run(
          'UPDATE layout_names SET name = ?, named_at = ? WHERE player_id = ? AND layout = ?',
          [name, now, playerId, layout],
        );
        if (changed === 1) return 'set';
        const held = await tx.one<{ n: number }>('SELECT COUNT(*) AS n FROM layout_names WHERE player_id = ?', [
          playerId,
        ]);
        if (Number(held?.n ?? 0) >= max) return 'full';
        await tx.run('INSERT INTO layout_names (player_id, layout, name, named_at) VALUES (?, ?, ?, ?)', [
          playerId,
          layout,
          name,
          now,
        ]);
        return 'set';
      });
    },
  };
}
