import { type EndpointOutput, ORDER_STATE, ordersEndpoints } from '@paydesk/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { call } from '../../shared/api/http';

/*
 * The payer page reads its order with these small hooks rather than TanStack Query: it makes three
 * calls, and the phone of a payer on mobile data should not download a query library for them
 * (issue 18: the payer page loads at most 120 KB of JavaScript). It also imports the orders group of
 * the contract, not the whole table (`endpoints`), so no other area's schemas come along.
 */

export type PayerOrder = EndpointOutput<typeof ordersEndpoints.payerOrder>;
/** The payer's view of the order, with the phone's clock reading when the answer arrived. */
export type LoadedOrder = PayerOrder & { receivedAt: number };

/** How often the page asks again while the payer may still pay, so a confirmation shows by itself. */
export const PAYER_REFRESH_MS = 10_000;

export interface PayerOrderState {
  /** The last answer; kept when a later refresh fails (the payer still sees what to pay to). */
  data: LoadedOrder | undefined;
  /** Why the first read failed (no such order, the server unreachable): shown instead of the order. */
  error: Error | null;
  isLoading: boolean;
  /** Asks the server again now (after a UTR, when the countdown runs out, or from the retry button). */
  refetch: () => Promise<void>;
}

const stillOpen = (order: LoadedOrder | undefined) =>
  order?.state === ORDER_STATE.allocated || order?.state === ORDER_STATE.timedOut;

/** The order of the page, read at once and every PAYER_REFRESH_MS while the payer may still pay. */
export function usePayerOrder(orderCode: string): PayerOrderState {
  const [data, setData] = useState<LoadedOrder>();
  const [error, setError] = useState<Error | null>(null);
  const [isLoading, setLoading] = useState(true);
  // Only the answer to the latest request counts: an older one arriving late must not undo it.
  const latest = useRef(0);
  const refetch = useCallback(async () => {
    const request = ++latest.current;
    try {
      const order = await call(ordersEndpoints.payerOrder, { orderCode });
      if (request !== latest.current) return;
      setData({ ...order, receivedAt: Date.now() });
      setError(null);
    } catch (e) {
      if (request !== latest.current) return;
      setError(e instanceof Error ? e : new Error(String(e)));
    } finally {
      if (request === latest.current) setLoading(false);
    }
  }, [orderCode]);

  useEffect(() => {
    setData(undefined);
    setLoading(true);
    void refetch();
    return () => {
      latest.current += 1; // answers for an order no longer shown are dropped
    };
  }, [refetch]);

  const open = stillOpen(data);
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => void refetch(), PAYER_REFRESH_MS);
    return () => clearInterval(timer);
  }, [open, refetch]);

  return { data, error: data ? null : error, isLoading, refetch };
}

/** A call the payer makes (submitting the UTR): whether it is under way and why it failed. */
export function useSubmit<T>(send: (value: T) => Promise<unknown>, after: (error: unknown) => void) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const submit = async (value: T) => {
    setPending(true);
    setError(null);
    try {
      await send(value);
      after(null);
    } catch (e) {
      setError(e instanceof Error ? e : new Error(String(e)));
      after(e);
    } finally {
      setPending(false);
    }
  };
  return { submit, pending, error };
}

/**
 * The uploaded QR image of the order's account (WeChat, Alipay, UPI accounts whose supplier uploaded
 * one): read once per order; the server answers it only while the order awaits payment.
 */
export function usePayerQrImage(orderCode: string) {
  const [image, setImage] = useState<{ dataUrl: string } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    setImage(null);
    setFailed(false);
    call(ordersEndpoints.payerQrImage, { orderCode }).then(
      (answer) => current && setImage(answer),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [orderCode]);
  return { data: image, isError: failed };
}
