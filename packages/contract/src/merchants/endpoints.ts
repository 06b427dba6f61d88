import type { EndpointGroup } from '../common/endpoint.js';

export const merchantsEndpoints = {} as const satisfies EndpointGroup;
