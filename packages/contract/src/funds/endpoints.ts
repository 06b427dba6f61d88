import type { EndpointGroup } from '../common/endpoint.js';

export const fundsEndpoints = {} as const satisfies EndpointGroup;
