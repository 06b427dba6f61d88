import type { endpoints } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { SavedViewsService } from './views.service.js';

export function viewsHandlers(_views: SavedViewsService) {
  return {} satisfies Handlers<typeof endpoints.views>;
}
