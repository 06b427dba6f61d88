import type { endpoints } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { OrderProfileService } from './orderprofile.service.js';

export function orderProfileHandlers(profile: OrderProfileService) {
  return {
    getProfile: (input) => profile.profile(input),
    exportProfile: (input) => profile.exportRows(input),
  } satisfies Handlers<typeof endpoints.orderProfile>;
}
