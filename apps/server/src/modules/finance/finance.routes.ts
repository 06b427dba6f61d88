import type { endpoints } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { FinanceService } from './finance.service.js';

export function financeHandlers(finance: FinanceService): Handlers<typeof endpoints.finance> {
  return {
    fundFlow: (input) => finance.fundFlow(input),
    fundFlowExport: (input) => finance.fundFlowRows(input),
  };
}
