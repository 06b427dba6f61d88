import { OrderActions } from './order-actions.js';
import { OrderCore, type OrdersDeps } from './order-core.js';
import { OrderIntake } from './order-intake.js';
import { OrderPayments } from './order-payments.js';

export type { GatewayPaidOutcome } from './order-actions.js';
export { ORDER_TEXTS, type OrderParams, type OrderRecord, type OrdersDeps, orderInScope } from './order-core.js';

/**
 * The collection order engine (DESIGN sections 5 and 6), one service for routes and other modules,
 * made of parts by job: intake and allocation (`order-intake.ts`), order actions (`order-actions.ts`),
 * payments and transfers (`order-payments.ts`) over a shared core (`order-core.ts`: settings, clock,
 * the state and timeline rules). Lists and the detail are `OrderQueries` (`orders.query.ts`).
 */
export class OrdersService {
  private readonly core: OrderCore;
  private readonly intake: OrderIntake;
  private readonly actions: OrderActions;

  // intake and allocation
  readonly create: OrderIntake['create'];
  readonly createFor: OrderIntake['createFor'];
  readonly payeeOfOrder: OrderIntake['payeeOfOrder'];
  // order actions, the timeouts job and the payer
  readonly findInScope: OrderActions['findInScope'];
  readonly confirm: OrderActions['confirm'];
  readonly supplement: OrderActions['supplement'];
  readonly reselect: OrderActions['reselect'];
  readonly reject: OrderActions['reject'];
  readonly freeResource: OrderActions['freeResource'];
  readonly triggerCallback: OrderActions['triggerCallback'];
  readonly reverse: OrderActions['reverse'];
  readonly updateMark: OrderActions['updateMark'];
  readonly unlock: OrderActions['unlock'];
  readonly expireDue: OrderActions['expireDue'];
  readonly submitPayerUtr: OrderActions['submitPayerUtr'];
  // pay gateways' notifications
  readonly payByGateway: OrderActions['payByGateway'];

  constructor(readonly deps: OrdersDeps) {
    this.core = new OrderCore(deps);
    const payments = new OrderPayments(this.core);
    this.intake = new OrderIntake(this.core);
    this.actions = new OrderActions(this.core, this.intake, payments);
    const i = this.intake;
    const a = this.actions;
    this.create = i.create.bind(i);
    this.createFor = i.createFor.bind(i);
    this.payeeOfOrder = i.payeeOfOrder.bind(i);
    this.findInScope = a.findInScope.bind(a);
    this.confirm = a.confirm.bind(a);
    this.supplement = a.supplement.bind(a);
    this.reselect = a.reselect.bind(a);
    this.reject = a.reject.bind(a);
    this.freeResource = a.freeResource.bind(a);
    this.triggerCallback = a.triggerCallback.bind(a);
    this.reverse = a.reverse.bind(a);
    this.updateMark = a.updateMark.bind(a);
    this.unlock = a.unlock.bind(a);
    this.expireDue = a.expireDue.bind(a);
    this.submitPayerUtr = a.submitPayerUtr.bind(a);
    this.payByGateway = a.payByGateway.bind(a);
  }

  /** The order settings (cached; tests invalidate it after changing a setting). */
  get settings() {
    return this.core.settings;
  }

  /**
   * The signed-call check (merchants/signed-call.ts) with this engine's service switch and a merchant
   * read per call: for signed merchant calls other than create (the query calls, payouts).
   */
  get signedCalls() {
    return this.core.signedCalls;
  }

  /** The platform's calendar day of `at`. */
  today(at?: Date): string {
    return this.core.today(at);
  }
}
