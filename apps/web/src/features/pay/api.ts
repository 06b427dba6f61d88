import { type EndpointOutput, endpoints, ORDER_STATE } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../shared/api/http';

/** Query keys of the payer page; a submitted UTR invalidates `payKeys.order(code)`. */
export const payKeys = {
  all: ['pay'] as const,
  order: (orderCode: string) => ['pay', 'order', orderCode] as const,
  qrImage: (orderCode: string) => ['pay', 'qrImage', orderCode] as const,
};

export type PayerOrder = EndpointOutput<typeof endpoints.orders.payerOrder>;
/** The payer's view of the order, with the phone's clock reading when the answer arrived. */
export type LoadedOrder = PayerOrder & { receivedAt: number };

/** How often the page asks again while the payer may still pay, so a confirmation shows by itself. */
export const PAYER_REFRESH_MS = 10_000;

export function usePayerOrder(orderCode: string) {
  return useQuery({
    queryKey: payKeys.order(orderCode),
    queryFn: async (): Promise<LoadedOrder> => ({
      ...(await call(endpoints.orders.payerOrder, { orderCode })),
      receivedAt: Date.now(),
    }),
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === ORDER_STATE.allocated || state === ORDER_STATE.timedOut ? PAYER_REFRESH_MS : false;
    },
    retry: false,
  });
}

/**
 * The uploaded QR image of the order's account (WeChat, Alipay, UPI accounts whose supplier uploaded
 * one): read once per order; the server answers it only while the order awaits payment.
 */
export function usePayerQrImage(orderCode: string) {
  return useQuery({
    queryKey: payKeys.qrImage(orderCode),
    queryFn: () => call(endpoints.orders.payerQrImage, { orderCode }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
