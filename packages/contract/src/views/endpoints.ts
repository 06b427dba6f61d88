import type { EndpointGroup } from '../common/endpoint.js';

export const viewsEndpoints = {} as const satisfies EndpointGroup;
