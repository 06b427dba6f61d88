import type { endpoints } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { ProductsService } from './products.service.js';

export function productsHandlers(_products: ProductsService) {
  return {} satisfies Handlers<typeof endpoints.products>;
}
