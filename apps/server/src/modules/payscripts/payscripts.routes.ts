import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { PayScriptsService } from './payscripts.service.js';

export function payScriptsHandlers(scripts: PayScriptsService) {
  return {
    getPayScriptList: (input) => scripts.list({ ...input, pageSize: pageSizeOf(input) }),
    exportPayScriptList: (input) => scripts.exportList(input),
    getPayScriptVersions: (input) => scripts.versions(input.id),
    createPayScript: (input, ctx) => scripts.create(input, ctx.actor),
    savePayScriptVersion: (input, ctx) => scripts.saveVersion(input, ctx.actor),
    activatePayScriptVersion: (input, ctx) => scripts.activate(input, ctx.actor),
    setPayScriptProducts: (input, ctx) => scripts.setProducts(input, ctx.actor),
    testPayScript: (input, ctx) => scripts.testRun(input, ctx.actor),
    getPayScriptRecords: (input) => scripts.records({ ...input, pageSize: pageSizeOf(input) }),
    exportPayScriptRecords: (input) => scripts.exportRecords(input),
  } satisfies Handlers<typeof endpoints.payScripts>;
}

export function payerScriptHandlers(scripts: PayScriptsService) {
  return {
    payerScriptView: (input) => scripts.payerView(input.orderCode),
  } satisfies Handlers<typeof endpoints.payerScripts>;
}
