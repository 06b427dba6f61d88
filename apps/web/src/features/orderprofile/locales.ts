import type { Locales } from '../../i18n/types';

/** Texts of /order/profile (order performance analysis). */
export const orderProfileLocales = {
  'zh-CN': {
    filter: { time: '下单时间', product: '产品', merchant: '商户' },
    window: '统计区间：{{start}} 至 {{end}}（{{zone}}，按下单时间；最长 {{max}} 天，默认最近 {{days}} 天）',
    count: {
      created: '下单数',
      allocated: '已分配',
      paid: '已支付',
      allocationFailed: '分配失败',
      timedOut: '已超时',
    },
    metric: {
      allocate: '分配耗时',
      pay: '支付耗时',
      callback: '回调延迟',
    },
    metricHelp: {
      allocate: '从下单到首次分配收款账户',
      pay: '从最近一次分配到支付到账',
      callback: '从支付到首次回调成功',
    },
    percentile: { p50: 'P50', p90: 'P90', p99: 'P99' },
    chart: {
      hourly: '各小时耗时分位数',
      hourlyAxis: '小时（{{zone}}）',
      products: '各产品订单数',
    },
    table: { title: '按产品与小时', product: '产品', hour: '小时' },
    duration: { none: '—', ms: '{{value}} 毫秒', s: '{{value}} 秒', min: '{{m}} 分 {{s}} 秒' },
    empty: '该区间内没有订单',
  },
  'zh-TW': {
    filter: { time: '下單時間', product: '產品', merchant: '商戶' },
    window: '統計區間：{{start}} 至 {{end}}（{{zone}}，依下單時間；最長 {{max}} 天，預設最近 {{days}} 天）',
    count: {
      created: '下單數',
      allocated: '已分配',
      paid: '已支付',
      allocationFailed: '分配失敗',
      timedOut: '已逾時',
    },
    metric: {
      allocate: '分配耗時',
      pay: '支付耗時',
      callback: '回呼延遲',
    },
    metricHelp: {
      allocate: '從下單到首次分配收款帳戶',
      pay: '從最近一次分配到支付到帳',
      callback: '從支付到首次回呼成功',
    },
    percentile: { p50: 'P50', p90: 'P90', p99: 'P99' },
    chart: {
      hourly: '各小時耗時百分位數',
      hourlyAxis: '小時（{{zone}}）',
      products: '各產品訂單數',
    },
    table: { title: '依產品與小時', product: '產品', hour: '小時' },
    duration: { none: '—', ms: '{{value}} 毫秒', s: '{{value}} 秒', min: '{{m}} 分 {{s}} 秒' },
    empty: '該區間內沒有訂單',
  },
  'en-US': {
    filter: { time: 'Created', product: 'Product', merchant: 'Merchant' },
    window:
      'Window: {{start}} to {{end}} ({{zone}}, by creation time; at most {{max}} days, the last {{days}} days by default)',
    count: {
      created: 'Created',
      allocated: 'Allocated',
      paid: 'Paid',
      allocationFailed: 'Allocation failed',
      timedOut: 'Timed out',
    },
    metric: {
      allocate: 'Time to allocate',
      pay: 'Time to pay',
      callback: 'Callback latency',
    },
    metricHelp: {
      allocate: 'From creation to the first receiving account',
      pay: 'From the latest allocation to payment',
      callback: 'From payment to the first successful callback',
    },
    percentile: { p50: 'P50', p90: 'P90', p99: 'P99' },
    chart: {
      hourly: 'Latency percentiles by hour',
      hourlyAxis: 'Hour ({{zone}})',
      products: 'Orders by product',
    },
    table: { title: 'By product and hour', product: 'Product', hour: 'Hour' },
    duration: { none: '—', ms: '{{value}} ms', s: '{{value}} s', min: '{{m}} min {{s}} s' },
    empty: 'No orders in this window',
  },
} satisfies Locales;
