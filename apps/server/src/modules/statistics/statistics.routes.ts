import type { endpoints } from '@paydesk/contract';
import type { Handlers, UserContext } from '../../platform/context.js';
import type { StatisticsCaller, StatisticsService } from './statistics.service.js';

const caller = (ctx: UserContext): StatisticsCaller => ({ role: ctx.role, scope: ctx.scope });

export function statisticsHandlers(statistics: StatisticsService): Handlers<typeof endpoints.statistics> {
  return {
    statisticsV2: (input, ctx) => statistics.statistics(caller(ctx), input),
    payoutStatisticsV2: (input, ctx) => statistics.statistics(caller(ctx), { ...input, orderType: 'payout' }),
    simplestatisticsV2: (input, ctx) => statistics.simple(caller(ctx), input),
  };
}
