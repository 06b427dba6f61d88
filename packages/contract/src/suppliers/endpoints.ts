import type { EndpointGroup } from '../common/endpoint.js';

export const suppliersEndpoints = {} as const satisfies EndpointGroup;
