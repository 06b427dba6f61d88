import { ORDER_ACTIONS } from '../orders/states.js';
import { PAYOUT_ACTIONS } from '../payouts/states.js';

/**
 * Every action the server writes to the audit log, as `<area>.<call>`. The server's audit entry takes
 * only these (a new action is added here first), and the console names each in three languages; a
 * row of an action it does not know (an older version's) shows the code.
 */
const AREA_ACTIONS = {
  auth: [
    'login',
    'loginFailed',
    'login2',
    'logout',
    'forceLogout',
    'bindUser',
    'confirmBind',
    'unbind',
    'bindUserForProfile',
    'confirmBindForProfile',
    'unbindForProfile',
    'setAllowModify',
    'enableGoogleVerify',
    'clearSignInLock',
    // EnableIpChangedCheck: the system ended a session whose request came from another address.
    'addressChanged',
  ],
  users: ['addUser', 'updateUser', 'deleteUser', 'repairUser', 'resetPayPassword'],
  profile: ['updateNickname', 'changePassword', 'changePayPassword'],
  messages: ['send'],
  views: ['save', 'delete'],
  merchants: ['create', 'update', 'setEnabled', 'revealSecret', 'rotateSecret'],
  suppliers: ['create', 'update', 'setEnabled', 'createAgent', 'updateAgent'],
  products: ['updateProduct', 'saveUserProduct', 'saveCommission'],
  funds: ['propose', 'approve', 'reject', 'cancel'],
  resources: ['create', 'update', 'delete', 'enable', 'uploadQr'],
  // gatewayPaid: a collectionNotify pay gateway's notification confirmed the order paid (the actor names it).
  orders: [...ORDER_ACTIONS, 'createBatch', 'gatewayPaid'],
  callbacks: ['replay', 'delete', 'sendTest'],
  payouts: ['create', ...PAYOUT_ACTIONS],
  // Every batch action but download (a read).
  payoutBatches: ['create', 'propose', 'approve', 'exportFile', 'uploadResult', 'markAbnormal'],
  systemConfig: ['set'],
  ipWhitelist: ['add', 'delete'],
  nameBlacklist: ['add', 'delete'],
  bots: [
    'whitelistAdd',
    'whitelistUpdate',
    'whitelistDelete',
    'groupAdd',
    'groupUpdate',
    'groupDelete',
    'templateUpdate',
    'templateReset',
    'groupTransferNotices',
    'transferBotTest',
  ],
  payScripts: ['create', 'saveVersion', 'activate', 'setProducts'],
  orderClear: ['run'],
  systemMaintenance: ['fixResources', 'resetResourcePool'],
  payGateways: ['create', 'update', 'setEnabled', 'delete'],
} as const;

type AreaActions = typeof AREA_ACTIONS;
export type AuditAction = {
  [Area in keyof AreaActions]: `${Area}.${AreaActions[Area][number]}`;
}[keyof AreaActions];

export const AUDIT_ACTIONS: readonly AuditAction[] = Object.entries(AREA_ACTIONS).flatMap(([area, calls]) =>
  calls.map((call) => `${area}.${call}` as AuditAction),
);
