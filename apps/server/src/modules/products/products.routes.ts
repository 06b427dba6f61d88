import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { ProductsService } from './products.service.js';

export function productsHandlers(products: ProductsService) {
  return {
    getProductList: () => products.getProductList(),
    updateProduct: (input, ctx) => products.updateProduct(input, ctx.actor),
    getUserProductList: (input, ctx) =>
      products.getUserProductList(ctx.scope, { ...input, pageSize: pageSizeOf(input) }),
    exportUserProductList: (input, ctx) => products.exportUserProductList(ctx.scope, input),
    getUserProductsForUser: (input, ctx) => products.getUserProductsForUser(ctx.scope, input.userId),
    saveUserProduct: (input, ctx) => products.saveUserProduct(input, ctx.actor),
  } satisfies Handlers<typeof endpoints.products>;
}
