import { MAX_VIEWS_PER_PAGE, type SavedView, VIEW_TEXTS, type ViewFilters } from '@paydesk/contract';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { savedViews } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { notFound, refused } from '../../platform/errors.js';

export interface SavedViewsDeps {
  db: Db;
  clock: Clock;
}

/** Any fixed number: one user's saves on a page run one at a time, so the per-page limit holds. */
const VIEWS_LOCK = 7_270_703;

type ViewRecord = typeof savedViews.$inferSelect;

function toView(v: ViewRecord): SavedView {
  return {
    id: v.id,
    page: v.page,
    name: v.name,
    filters: v.filters as SavedView['filters'],
    createdAt: v.createdAt.toISOString(),
  };
}

const auditView = (v: Pick<ViewRecord, 'page' | 'name' | 'filters'>) => ({
  page: v.page,
  name: v.name,
  filters: v.filters,
});

/**
 * Saved filter views (DESIGN section 3): named filter sets per user and list page. Every call acts on
 * the caller's own views only; another user's view does not exist for the caller (404).
 */
export class SavedViewsService {
  constructor(readonly deps: SavedViewsDeps) {}

  private get db() {
    return this.deps.db;
  }

  async getList(userId: number, page: string): Promise<SavedView[]> {
    const rows = await this.db
      .select()
      .from(savedViews)
      .where(and(eq(savedViews.userId, userId), eq(savedViews.page, page)))
      .orderBy(desc(savedViews.createdAt), desc(savedViews.id));
    return rows.map(toView);
  }

  /** Creates the view, or replaces the filters of the caller's view of that page with that name. */
  async save(userId: number, input: { page: string; name: string; filters: ViewFilters }, actor: Actor) {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${VIEWS_LOCK}, ${userId})`);
      const mine = and(eq(savedViews.userId, userId), eq(savedViews.page, input.page));
      const [existing] = await tx
        .select()
        .from(savedViews)
        .where(and(mine, eq(savedViews.name, input.name)));
      const now = this.deps.clock.now();
      let saved: ViewRecord;
      if (existing) {
        [saved] = (await tx
          .update(savedViews)
          .set({ filters: input.filters })
          .where(eq(savedViews.id, existing.id))
          .returning()) as [ViewRecord];
      } else {
        const [held] = await tx.select({ n: count() }).from(savedViews).where(mine);
        if ((held?.n ?? 0) >= MAX_VIEWS_PER_PAGE) throw refused(VIEW_TEXTS.tooManyViews, 'tooManyViews');
        [saved] = (await tx
          .insert(savedViews)
          .values({ userId, page: input.page, name: input.name, filters: input.filters, createdAt: now })
          .returning()) as [ViewRecord];
      }
      await writeAudit(
        tx,
        actor,
        {
          action: 'views.save',
          target: `view:${saved.id}`,
          before: existing ? auditView(existing) : null,
          after: auditView(saved),
        },
        now,
      );
      return toView(saved);
    });
  }

  async delete(userId: number, id: number, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [gone] = await tx
        .delete(savedViews)
        .where(and(eq(savedViews.id, id), eq(savedViews.userId, userId)))
        .returning();
      if (!gone) throw notFound('no such view');
      await writeAudit(
        tx,
        actor,
        { action: 'views.delete', target: `view:${gone.id}`, before: auditView(gone), after: null },
        this.deps.clock.now(),
      );
    });
  }
}
