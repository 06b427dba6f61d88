import type { ReasonTexts } from '../common/server-texts.js';

/**
 * The refusals of the order clear (spec section 2, system management › order clear history), apart
 * from its endpoints so the server's catalogue (REASON_TEXTS) can take them without importing those.
 */
export const ORDER_CLEAR_REASON_TEXTS = {
  orderClearOff: {
    'zh-CN': '数据清理周期为 0（永久保留）：没有可清理的订单明细。请先在全局配置中设置 DataClearCycle',
    'zh-TW': '資料清理週期為 0（永久保留）：沒有可清理的訂單明細。請先在全域設定中設定 DataClearCycle',
    'en-US':
      'The data clear cycle is 0 (keep everything): nothing is cleared. Set DataClearCycle in the global config first',
  },
  orderClearRunning: {
    'zh-CN': '另一次订单清理正在进行：请等它结束',
    'zh-TW': '另一次訂單清理正在進行：請等它結束',
    'en-US': 'Another order clear is running: wait until it ends',
  },
} as const satisfies Record<string, ReasonTexts>;
