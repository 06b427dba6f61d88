import type { EndpointGroup } from '../common/endpoint.js';

export const productsEndpoints = {} as const satisfies EndpointGroup;
